// The sample message of "Send test mail" (it goes through the same pipeline as real mail).

/** Local part of the test mail's sender, at the callback's own domain. */
export const TEST_MAIL_SENDER_LOCAL_PART = "test";

export const TEST_MAIL_SENDER_NAME = "Hookmail";

export const TEST_MAIL_SUBJECT = "Hookmail test mail";
