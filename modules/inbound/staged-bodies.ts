// A large message's webhook bodies, staged in the database while the parsing thread makes them
// (docs/architecture.md: Large values): one upload per body, each slice written as it comes
// (body-pieces.ts), the whole set on its row by the transaction that writes the message
// (inbound.repository.ts). A message spooled as it arrived has its raw bytes staged from its file
// the same way, while the thread parses it. What is staged and not used (a refused message, a body whose mail turned
// out not to be delivered) is deleted here.
import { createUploadId, type StagedValue } from "@/modules/db/value-uploads";
import { LARGE_PAYLOAD_BYTES } from "@/modules/delivery/delivery.constants";
import type { BodyPieceWriter } from "./body-pieces";
import type { InboundRepository } from "./inbound.repository";
import type { PostedBody } from "./parsing/body-sinks";
import { isSpooledMessage, type SpooledMessage } from "./parsing/message-source";

export type StagedBodies = {
  /** Where the parsing thread's slices go; undefined for a small message (its bodies come back whole). */
  writePiece: BodyPieceWriter | undefined;
  /** The body of the request at `index` as a row holds it. */
  toPayload: (body: Buffer | PostedBody, index: number) => Uint8Array | StagedValue;
  /** The raw message as the rows hold it: the bytes back from the thread, or its upload (a spooled message). */
  toRawMessage: (parsedRaw: Buffer | null) => Uint8Array | StagedValue;
  /** Deletes the uploads of the bodies at these indexes (all of them, and the raw message's, when left out). */
  discard: (indexes?: number[]) => Promise<void>;
  /**
   * The parse's outcome once the spooled raw message is staged too, every upload deleted when it is
   * no parsed message (a refusal, an error) or the staging failed.
   */
  unlessParsed: <T extends { kind: string }>(parse: Promise<T>) => Promise<T>;
};

/**
 * The uploads of a message with `count` bodies to build: its bodies are staged as they are made
 * when the message is over LARGE_PAYLOAD_BYTES (they are about as large), else nothing is; a spooled
 * message (parsing/message-source.ts) is staged from its file while the thread parses it, when it
 * has a row to be written (`count` bodies, or `hasRows`).
 */
export function planStagedBodies({
  raw,
  count,
  hasRows = count > 0,
  repository,
}: {
  raw: Buffer | SpooledMessage;
  count: number;
  hasRows?: boolean;
  repository: Pick<InboundRepository, "stageSlice" | "stageFile" | "deleteUploads">;
}): StagedBodies {
  const isStaged = count > 0 && raw.byteLength > LARGE_PAYLOAD_BYTES;
  const uploadIds = Array.from({ length: isStaged ? count : 0 }, () => createUploadId());
  const spooled = hasRows && isSpooledMessage(raw) ? raw : undefined;
  // One value for all the message's rows: the repository stages and joins it once.
  const stagedRaw: StagedValue | undefined = spooled && { uploadId: createUploadId(), byteLength: spooled.byteLength };
  const stagingRaw = spooled && stagedRaw && repository.stageFile(stagedRaw.uploadId, spooled.spoolPath);
  const discard = async (indexes?: number[]) => {
    const chosen = indexes ? indexes.map((index) => uploadIds[index]) : [...uploadIds, stagedRaw?.uploadId];
    await repository.deleteUploads(chosen.filter((id) => id !== undefined));
  };
  return {
    writePiece: isStaged
      ? ({ body, part, seq, bytes }) => repository.stageSlice({ uploadId: uploadIds[body]!, part, seq, bytes })
      : undefined,
    toPayload: (body, index) => ("kind" in body ? { uploadId: uploadIds[index]!, byteLength: body.byteLength } : body),
    toRawMessage: (parsedRaw) => stagedRaw ?? parsedRaw!,
    discard,
    unlessParsed: async <T extends { kind: string }>(parse: Promise<T>) => {
      // Both settle before anything is deleted: no slice is written after its upload is discarded.
      const [parsed, staged] = await Promise.allSettled([parse, stagingRaw]);
      const failed = [parsed, staged].find((result): result is PromiseRejectedResult => result.status === "rejected");
      if (failed) {
        await discard();
        throw failed.reason;
      }
      const outcome = (parsed as PromiseFulfilledResult<T>).value;
      if (outcome.kind !== "parsed") await discard();
      return outcome;
    },
  };
}
