// What the events route hands to its usecase: the repository on the process's database, and the
// process's one listener, made from that database by the composition root (docs/architecture.md:
// The parts) and closed with it.
import type { KeyObject } from "node:crypto";
import type { Database } from "@/modules/db/db";
import type { Logger } from "@/modules/shared/logging/logger";
import { EVENTS_FOLLOW, EVENTS_LISTENER_APPLICATION_NAME } from "./events.constants";
import { createEventsRepository, type EventsRepository, followEmailCallbacks } from "./events.repository";
import { createEventsListener, type EventsListener } from "./events-listener";

/** A process's listener of live events, on a connection of its own to `database`. */
export function createProcessEventsListener({ database, logger }: { database: Database; logger: Logger }): EventsListener {
  const repository = createEventsRepository(database.executor);
  return createEventsListener({
    createClient: () => database.createSessionClient(EVENTS_LISTENER_APPLICATION_NAME),
    readEvents: repository.findEventsByIds,
    follow: (client, emailCallbackIds) => followEmailCallbacks(client, emailCallbackIds, EVENTS_FOLLOW),
    logger,
  });
}

export async function getEventsDependencies({
  database,
  eventsListener,
  signingKeyEncryptionKey,
}: {
  database: () => Promise<Database>;
  eventsListener: () => Promise<EventsListener>;
  signingKeyEncryptionKey: () => KeyObject;
}): Promise<{ listener: EventsListener; repository: EventsRepository; signingKeyEncryptionKey: KeyObject }> {
  return {
    listener: await eventsListener(),
    repository: createEventsRepository((await database()).executor),
    signingKeyEncryptionKey: signingKeyEncryptionKey(),
  };
}
