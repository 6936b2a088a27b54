// A large message's webhook bodies, staged in the database while the parsing thread makes them
// (docs/architecture.md: Large values): one upload per body, each slice written as it comes
// (body-pieces.ts), the whole set on its row by the transaction that writes the message
// (inbound.repository.ts). What is staged and not used (a refused message, a body whose mail turned
// out not to be delivered) is deleted here.
import { createUploadId, type StagedValue } from "@/modules/db/value-uploads";
import { LARGE_PAYLOAD_BYTES } from "@/modules/delivery/delivery.constants";
import type { BodyPieceWriter } from "./body-pieces";
import type { InboundRepository } from "./inbound.repository";
import type { PostedBody } from "./parsing/body-sinks";

export type StagedBodies = {
  /** Where the parsing thread's slices go; undefined for a small message (its bodies come back whole). */
  writePiece: BodyPieceWriter | undefined;
  /** The body of the request at `index` as a row holds it. */
  toPayload: (body: Buffer | PostedBody, index: number) => Uint8Array | StagedValue;
  /** Deletes the uploads of the bodies at these indexes (all when left out). */
  discard: (indexes?: number[]) => Promise<void>;
  /** The parse's outcome, every upload deleted when it is no parsed message (a refusal, an error). */
  unlessParsed: <T extends { kind: string }>(parse: Promise<T>) => Promise<T>;
};

/**
 * The uploads of the `count` bodies of a message of `messageBytes`: staged as they are made when the
 * message is over LARGE_PAYLOAD_BYTES (its bodies are about as large), else nothing is staged.
 */
export function planStagedBodies({
  messageBytes,
  count,
  repository,
}: {
  messageBytes: number;
  count: number;
  repository: Pick<InboundRepository, "stageSlice" | "deleteUploads">;
}): StagedBodies {
  const isStaged = count > 0 && messageBytes > LARGE_PAYLOAD_BYTES;
  const uploadIds = Array.from({ length: isStaged ? count : 0 }, () => createUploadId());
  const discard = async (indexes?: number[]) => {
    const chosen = indexes ? indexes.map((index) => uploadIds[index]) : uploadIds;
    await repository.deleteUploads(chosen.filter((id) => id !== undefined));
  };
  return {
    writePiece: isStaged
      ? ({ body, part, seq, bytes }) => repository.stageSlice({ uploadId: uploadIds[body]!, part, seq, bytes })
      : undefined,
    toPayload: (body, index) => ("kind" in body ? { uploadId: uploadIds[index]!, byteLength: body.byteLength } : body),
    discard,
    unlessParsed: async <T extends { kind: string }>(parse: Promise<T>) => {
      let outcome: T;
      try {
        outcome = await parse;
      } catch (error) {
        await discard();
        throw error;
      }
      if (outcome.kind !== "parsed") await discard();
      return outcome;
    },
  };
}
