// What the events route hands to its usecase: the repository on the process's database and the
// process's one listener, shared through globalThis like the database (the custom server and Next's
// route bundles each load this module).
import { getDatabase } from "@/modules/db/db";
import { getLogger } from "@/modules/shared/logging/logger";
import { processSingleton } from "@/modules/shared/process-singleton";
import { EVENTS_FOLLOW, EVENTS_LISTENER_APPLICATION_NAME } from "./events.constants";
import { createEventsRepository, type EventsRepository, followEmailCallbacks } from "./events.repository";
import { createEventsListener, type EventsListener } from "./events-listener";

const processListener = processSingleton<EventsListener>("eventsListener");

export async function getEventsDependencies(): Promise<{ listener: EventsListener; repository: EventsRepository }> {
  const database = await getDatabase();
  const repository = createEventsRepository(database.executor);
  const listener = processListener.getOrCreate(() =>
    createEventsListener({
      createClient: () => database.createSessionClient(EVENTS_LISTENER_APPLICATION_NAME),
      readEvents: repository.findEventsByIds,
      follow: (client, emailCallbackIds) => followEmailCallbacks(client, emailCallbackIds, EVENTS_FOLLOW),
      logger: getLogger(),
    }),
  );
  return { listener, repository };
}

/** Closes the process's listener (tests that change the process's database, and shutdown). */
export async function closeProcessEventsListener() {
  const listener = processListener.get();
  processListener.set(undefined);
  await listener?.close();
}
