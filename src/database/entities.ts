import { IdempotencyKey } from '../common/idempotency/idempotency-key.entity';
import { MailMessage } from '../common/mail/mail-message.entity';
import { OutboxEvent } from '../common/outbox/outbox-event.entity';
import { Admin } from '../modules/admin/admin.entity';
import { Attendance } from '../modules/attendance/attendance.entity';
import { AuthToken } from '../modules/auth/auth-token.entity';
import { OneTimeCode } from '../modules/auth/one-time-code.entity';
import { Company } from '../modules/companies/company.entity';
import { Customer } from '../modules/customers/customer.entity';
import { Driver } from '../modules/drivers/driver.entity';
import { User } from '../modules/users/user.entity';

/** Every TypeORM entity. A new module adds its entities here and its tables in a migration. */
export const ENTITIES = [
  IdempotencyKey,
  MailMessage,
  OutboxEvent,
  Admin,
  Attendance,
  AuthToken,
  OneTimeCode,
  Company,
  Customer,
  Driver,
  User,
];
