import { Injectable } from '@nestjs/common';
import type { Actor } from '../../common/access/actor';
import { Scope } from '../../common/access/scope';
import { ApiError } from '../../common/http/api-error';
import { MailService } from '../../common/mail/mail.service';
import { hashPassword, verifyPassword } from '../../common/security/passwords';
import { MemberProfiles, UsersService } from '../users';
import { LoginDto, RegisterDto, ResetPasswordDto, TokenDto, UpdatePasswordDto, VerifyCodeDto } from './auth.dto';
import { CODE_TTL_MINUTES, OneTimeCodeService } from './one-time-code.service';
import { TokenService } from './token.service';
import { UnitOfWork } from '../../database/unit-of-work';
import { AuthTokenRepository } from './auth-token.repository';

/** Authentication of company users, customers and drivers (`/api/v1/auth/*`). */
@Injectable()
export class AuthService {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly authTokens: AuthTokenRepository,
    private readonly users: UsersService,
    private readonly profiles: MemberProfiles,
    private readonly tokens: TokenService,
    private readonly codes: OneTimeCodeService,
    private readonly mail: MailService,
  ) {}

  async register(dto: RegisterDto): Promise<TokenDto> {
    if (dto.type === 'customer' && !dto.company_id) throw ApiError.validation({ company_id: ['is required for customers'] });
    if (dto.type === 'company' && dto.company_id) throw ApiError.validation({ company_id: ['is only for customers'] });
    const { token, userId } = await this.uow.transaction(async () => {
      // The module owning the role record refuses a company that takes no members (422 company_id).
      if (dto.company_id) await this.profiles.admit(dto.type, Scope.company(dto.company_id));
      const user = await this.users.create({ type: dto.type, name: dto.name, email: dto.email, phone: dto.phone, password: dto.password, companyId: dto.company_id ?? null });
      await this.authTokens.recordEvents({ type: 'user.registered', aggregateType: 'user', aggregateId: user.id, companyId: user.companyId, actorId: user.id, payload: { type: user.type } });
      return { token: await this.tokens.issue({ id: user.id, type: user.type }), userId: user.id };
    });
    return { ...token, user: await this.users.profile(userId) };
  }

  async login(dto: LoginDto): Promise<TokenDto> {
    const row = await this.users.credentialsByEmail(dto.email);
    const ok = await verifyPassword(dto.password, row?.passwordHash);
    if (!row || !ok) throw ApiError.unauthorized('These credentials do not match our records.', 'INVALID_CREDENTIALS');
    const token = await this.tokens.issue({ id: row.id, type: row.type });
    return { ...token, user: await this.users.profile(row.id) };
  }

  /** Sends a code that verifies the e-mail address. Answers the same whether or not it is registered. */
  async sendVerificationCode(email: string): Promise<void> {
    if (!(await this.users.existsByEmail(email))) return;
    const code = await this.codes.issue('user', email, 'verify_email');
    await this.mail.send(email, 'Your verification code', `Your verification code is ${code}. It expires in ${CODE_TTL_MINUTES} minutes.`);
  }

  async verifyEmail(dto: VerifyCodeDto): Promise<void> {
    await this.codes.verify('user', dto.email, 'verify_email', dto.code, true, () => this.users.markEmailVerified(dto.email));
  }

  async forgotPassword(email: string): Promise<void> {
    if (!(await this.users.existsByEmail(email))) return;
    await this.sendPasswordCode(email, 'Reset your password', 'Use this code to reset your password');
  }

  /** Mails a password-setting code (forgotten password, or a user created by the company). */
  async sendPasswordCode(email: string, subject: string, intro: string): Promise<void> {
    const code = await this.codes.issue('user', email, 'reset_password');
    await this.mail.send(email, subject, `${intro}: ${code}. It expires in ${CODE_TTL_MINUTES} minutes.`);
  }

  async resetPassword(dto: ResetPasswordDto): Promise<void> {
    const hash = await hashPassword(dto.password);
    await this.codes.verify('user', dto.email, 'reset_password', dto.code, true, async () => {
      const userId = await this.users.lockByEmail(dto.email);
      if (!userId) return;
      await this.users.setPassword(userId, hash, { verifiesEmail: true });
      await this.tokens.revokeAllOf({ id: userId, kind: 'user' }, null);
    });
  }

  async updatePassword(actor: Actor, dto: UpdatePasswordDto): Promise<void> {
    if (!(await verifyPassword(dto.current_password, await this.users.passwordHashOf(actor.id)))) {
      throw ApiError.validation({ current_password: ['is not correct'] });
    }
    const hash = await hashPassword(dto.password);
    await this.uow.transaction(async () => {
      await this.users.setPassword(actor.id, hash);
      await this.tokens.revokeAllOf({ id: actor.id, kind: 'user' }, actor.jti);
    });
  }
}
