import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import { ApiError } from '../../common/http/api-error';
import { hashPassword } from '../../common/security/passwords';
import { UserDto } from '../auth/auth.dto';
import { Customer } from '../customers/customer.entity';
import { Driver } from '../drivers/driver.entity';
import { User, UserType } from './user.entity';
import { isUniqueViolation } from '../../database/pg-errors';

export interface NewUser {
  type: UserType;
  name: string;
  email: string;
  phone?: string | null;
  password?: string | null;
  companyId?: string | null;
}

/** Creates users with their role record, and renders them. E-mail is unique among non-admin users. */
@Injectable()
export class UsersService {
  constructor(private readonly ds: DataSource) {}

  /** Creates the user (and its customer or driver profile) through the caller's transaction. */
  async create(m: EntityManager, u: NewUser): Promise<User> {
    const [taken] = await m.query(`SELECT 1 FROM users WHERE lower(email) = lower($1)`, [u.email]);
    if (taken) throw emailTaken();
    const passwordHash = u.password ? await hashPassword(u.password) : null;
    let user: User;
    try {
      user = await m.save(
        m.create(User, { type: u.type, name: u.name, email: u.email.toLowerCase(), phone: u.phone ?? null, passwordHash, companyId: u.companyId ?? null, status: 'active' }),
      );
    } catch (e) {
      if (isUniqueViolation(e)) throw emailTaken();
      throw e;
    }
    if (u.type === 'customer') await m.insert(Customer, { id: user.id, companyId: u.companyId! });
    if (u.type === 'driver') await m.insert(Driver, { id: user.id, companyId: u.companyId! });
    return user;
  }

  /** The caller's profile (`/auth/me`, login `user`). */
  async profile(userId: string, m: EntityManager = this.ds.manager): Promise<UserDto> {
    const [row] = await m.query(
      `SELECT u.id, u.type, u.name, u.email, u.phone, u.status, u.company_id, u.email_verified_at, u.created_at,
              c.id AS c_id, c.name AS c_name, c.status AS c_status
         FROM users u LEFT JOIN companies c ON c.id = u.company_id AND c.deleted_at IS NULL
        WHERE u.id = $1`,
      [userId],
    );
    if (!row) throw ApiError.notFound('User');
    return {
      id: row.id,
      type: row.type,
      name: row.name,
      email: row.email,
      phone: row.phone,
      status: row.status,
      company_id: row.company_id,
      company: row.c_id ? { id: row.c_id, name: row.c_name, status: row.c_status } : null,
      email_verified: row.email_verified_at !== null,
      created_at: new Date(row.created_at).toISOString(),
    };
  }
}

const emailTaken = () => ApiError.conflict('EMAIL_TAKEN', 'This e-mail address is already registered.');
