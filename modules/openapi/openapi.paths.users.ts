// The calls on the signed-in account (the app's settings page): session only, like the API keys: a
// program with an API key reaches the addresses and their mail, not the account.
import { z } from "zod";
import { updateUserSchema } from "@/modules/users/users.schemas";
import { OPENAPI_TAG } from "./openapi.constants";
import type { OperationSpec } from "./openapi.operations";
import { userResponseSchema } from "./openapi.responses";

const tag = OPENAPI_TAG.ACCOUNT;
const userAnswer = z.object({ user: userResponseSchema });

export const USER_OPERATIONS: OperationSpec[] = [
  {
    method: "get",
    path: "/api/users/me",
    tag,
    operationId: "getCurrentUser",
    summary: "Read your account",
    description: "The signed-in user. Never the password or any session data.",
    access: "session",
    success: { status: 200, description: "The account.", content: { "application/json": userAnswer } },
    errors: [],
  },
  {
    method: "put",
    path: "/api/users/me",
    tag,
    operationId: "updateCurrentUser",
    summary: "Change your account's settings",
    description:
      "Changes only the fields given; an unknown field is refused. Also records the language of the request, " +
      "in which the mails sent outside a request (delivery alerts) are written.",
    access: "session",
    requestBody: { content: { "application/json": updateUserSchema } },
    success: { status: 200, description: "The account as saved.", content: { "application/json": userAnswer } },
    errors: [],
  },
];
