import { HttpStatus, Injectable } from '@nestjs/common';
import type { Actor } from '../../common/access/actor';
import { ApiError } from '../../common/http/api-error';
import { MailService } from '../../common/mail/mail.service';
import { hashPassword, verifyPassword } from '../../common/security/passwords';
import { AppConfig } from '../../config/app-config';
import { AdminRegisterDto, LoginDto, ResetPasswordDto, UpdatePasswordDto, VerifyCodeDto } from '../auth';
import { CODE_TTL_MINUTES, OneTimeCodeService } from '../auth';
import { TokenService } from '../auth';
import { timingSafeEqual } from 'node:crypto';
import { AdminDto, AdminTokenDto } from './admin.dto';
import { UnitOfWork } from '../../database/unit-of-work';
import { AdminRepository } from './admin.repository';

/** Failed logins before the first lock; each further failure doubles the lock, up to an hour. */
export const ADMIN_LOCK_THRESHOLD = 5;
export const ADMIN_LOCK_MAX_SECONDS = 3600;

export function adminLockSeconds(failures: number): number {
  if (failures < ADMIN_LOCK_THRESHOLD) return 0;
  return Math.min(ADMIN_LOCK_MAX_SECONDS, 60 * 2 ** (failures - ADMIN_LOCK_THRESHOLD));
}

/** Administrators' own authentication group (`/api/v1/admin/auth/*`). */
@Injectable()
export class AdminAuthService {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly admins: AdminRepository,
    private readonly config: AppConfig,
    private readonly tokens: TokenService,
    private readonly codes: OneTimeCodeService,
    private readonly mail: MailService,
  ) {}

  async register(dto: AdminRegisterDto): Promise<AdminTokenDto> {
    const key = this.config.adminRegistrationKey;
    if (!key) throw ApiError.forbidden('ADMIN_REGISTRATION_DISABLED', 'Administrator registration is not enabled on this server.');
    const a = Buffer.from(dto.registration_key);
    const b = Buffer.from(key);
    if (a.length !== b.length || !timingSafeEqual(a, b)) {
      throw ApiError.forbidden('INVALID_REGISTRATION_KEY', 'The registration key is not valid.');
    }
    const passwordHash = await hashPassword(dto.password);
    const { token, id } = await this.uow.transaction(async () => {
      if (await this.admins.emailTaken(dto.email)) throw ApiError.conflict('EMAIL_TAKEN', 'This e-mail address is already registered.');
      const id = await this.admins.insert(dto.name, dto.email, passwordHash);
      return { token: await this.tokens.issue({ id, type: 'admin' }), id };
    });
    return { ...token, user: await this.profile(id) };
  }

  /** Login with lock-out: 5 failures lock the account for 1 minute, doubling with each further failure. */
  async login(dto: LoginDto): Promise<AdminTokenDto> {
    const row = await this.admins.credentialsByEmail(dto.email);
    if (row?.locked_until && new Date(row.locked_until).getTime() > Date.now()) {
      throw locked(Math.ceil((new Date(row.locked_until).getTime() - Date.now()) / 1000));
    }
    const ok = await verifyPassword(dto.password, row?.password_hash);
    if (!row) throw ApiError.unauthorized('These credentials do not match our records.', 'INVALID_CREDENTIALS');
    if (!ok) {
      const failures = await this.admins.recordFailure(row.id);
      const lock = adminLockSeconds(failures);
      if (lock > 0) {
        await this.admins.lockFor(row.id, lock);
        throw locked(lock);
      }
      throw ApiError.unauthorized('These credentials do not match our records.', 'INVALID_CREDENTIALS');
    }
    await this.admins.clearFailures(row.id);
    return { ...(await this.tokens.issue({ id: row.id, type: 'admin' })), user: await this.profile(row.id) };
  }

  async forgotPassword(email: string): Promise<void> {
    if (!(await this.admins.idByEmail(email))) return;
    const code = await this.codes.issue('admin', email, 'reset_password');
    await this.mail.send(email, 'Reset your administrator password', `Use this code to reset your password: ${code}. It expires in ${CODE_TTL_MINUTES} minutes.`);
  }

  /** Checks a reset code without using it up (the client then calls reset-password). */
  async verifyCode(dto: VerifyCodeDto): Promise<void> {
    await this.codes.verify('admin', dto.email, 'reset_password', dto.code, false, async () => undefined);
  }

  async resetPassword(dto: ResetPasswordDto): Promise<void> {
    const hash = await hashPassword(dto.password);
    await this.codes.verify('admin', dto.email, 'reset_password', dto.code, true, async () => {
      const id = await this.admins.lockByEmail(dto.email);
      if (!id) return;
      await this.admins.resetPassword(id, hash);
      await this.tokens.revokeAllOf({ id, kind: 'admin' }, null);
    });
  }

  async updatePassword(actor: Actor, dto: UpdatePasswordDto): Promise<void> {
    const current = await this.admins.passwordHashOf(actor.id);
    if (!(await verifyPassword(dto.current_password, current ?? undefined))) throw ApiError.validation({ current_password: ['is not correct'] });
    const hash = await hashPassword(dto.password);
    await this.uow.transaction(async () => {
      await this.admins.setPassword(actor.id, hash);
      await this.tokens.revokeAllOf({ id: actor.id, kind: 'admin' }, actor.jti);
    });
  }

  async profile(id: string): Promise<AdminDto> {
    const row = await this.admins.profile(id);
    if (!row) throw ApiError.notFound('Administrator');
    return { id: row.id, type: 'admin', name: row.name, email: row.email, created_at: new Date(row.created_at).toISOString() };
  }
}

const locked = (seconds: number) =>
  new ApiError(HttpStatus.TOO_MANY_REQUESTS, 'ACCOUNT_LOCKED', `Too many failed logins; try again in ${seconds} seconds.`, undefined, { 'Retry-After': String(seconds) });
