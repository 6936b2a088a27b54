// Errors of outgoing mail. The cause (SMTP reply, connection or file system error) is kept for
// the log; the client only sees the code and a message that says to try again.
import { AppError } from "@/modules/shared/errors/app-error";

export const createMailSendFailedError = (cause?: unknown) =>
  new AppError({ code: "mail.send_failed", message: "The email could not be sent. Please try again later.", cause });
