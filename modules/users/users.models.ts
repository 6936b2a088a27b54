// A user as the app reads it, and as the API shows it: never the password or any session data.
export type UserRecord = {
  id: string;
  email: string;
  name: string;
  planId: string;
  emailVerified: boolean;
  deliveryAlerts: boolean;
};

/** How a user is shown to the API: the record's fields, and only those. */
export type ApiUser = UserRecord;

export function formatUserForApi(user: UserRecord): ApiUser {
  return {
    id: user.id,
    email: user.email,
    name: user.name,
    planId: user.planId,
    emailVerified: user.emailVerified,
    deliveryAlerts: user.deliveryAlerts,
  };
}
