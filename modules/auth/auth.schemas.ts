// Form schemas of the auth pages. Messages are i18n keys, translated where they are shown.
import { z } from "zod";

export const loginSchema = z.object({
  email: z.string().trim().min(1, "login.validation.emailRequired").pipe(z.email("login.validation.emailInvalid")),
  password: z.string().min(1, "login.validation.passwordRequired"),
  rememberMe: z.boolean(),
});

export type LoginInput = z.infer<typeof loginSchema>;
