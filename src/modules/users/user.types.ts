export const USER_TYPES = ['company', 'customer', 'driver'] as const;
export type UserType = (typeof USER_TYPES)[number];
export const USER_STATUSES = ['active', 'inactive'] as const;
export type UserStatus = (typeof USER_STATUSES)[number];

/** Contact changes of a user (undefined = unchanged). */
export interface ContactChanges {
  name?: string;
  email?: string;
  phone?: string | null;
}
