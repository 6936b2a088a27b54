// How a user is shown to the API: never the password or any session data.
export type ApiUser = {
  id: string;
  email: string;
  name: string;
  planId: string;
  emailVerified: boolean;
  deliveryAlerts: boolean;
};

export function formatUserForApi(user: ApiUser): ApiUser {
  return {
    id: user.id,
    email: user.email,
    name: user.name,
    planId: user.planId,
    emailVerified: user.emailVerified,
    deliveryAlerts: user.deliveryAlerts,
  };
}
