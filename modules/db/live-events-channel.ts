// The NOTIFY channel of live events (docs/architecture.md: Live events), shared by the features that
// write to it: the triggers on email_processing send `{emailCallbackId} {eventId}` (migration
// 20261126091500_processing_events), and deleting an API key sends `api-key-deleted {apiKeyId}`, so
// that every process ends the streams opened with that key at once.
export const LIVE_EVENTS_CHANNEL = "hookmail_processing_events";

/** The first word of the notice sent when an API key is deleted; the second is the key's id. */
export const API_KEY_DELETED_NOTICE = "api-key-deleted";
