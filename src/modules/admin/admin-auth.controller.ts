import { Body, Controller, Get, Headers, Post } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { Access } from '../../common/access/access.decorator';
import { Actor, CurrentActor } from '../../common/access/actor';
import { withMessage } from '../../common/http/envelope';
import { Endpoint } from '../../common/http/openapi';
import { bearerOf } from '../auth';
import { AdminRegisterDto, EmailDto, LoginDto, RefreshTokenDto, ResetPasswordDto, TokenDto, UpdatePasswordDto, VerifyCodeDto } from '../auth';
import { TokenService } from '../auth';
import { AdminDto, AdminTokenDto, CodeCheckDto } from './admin.dto';
import { AdminAuthService } from './admin-auth.service';

@ApiTags('Admin auth')
@Controller('api/v1/admin')
export class AdminAuthController {
  constructor(
    private readonly admins: AdminAuthService,
    private readonly tokens: TokenService,
  ) {}

  @Post('auth/register')
  @Access('PUB')
  @Endpoint({ summary: 'Register an administrator (needs the server\'s registration key)', type: AdminTokenDto, status: 201, errors: [403, 409, 422], codes: { 403: ['ADMIN_REGISTRATION_DISABLED', 'INVALID_REGISTRATION_KEY'], 409: ['EMAIL_TAKEN'] } })
  register(@Body() dto: AdminRegisterDto) {
    return this.admins.register(dto);
  }

  @Post('auth/login')
  @Access('PUB')
  @Endpoint({ summary: 'Administrator login (repeated failures lock the account with growing delays)', type: AdminTokenDto, errors: [422, 429], codes: { 401: ['INVALID_CREDENTIALS'], 429: ['ACCOUNT_LOCKED'] } })
  login(@Body() dto: LoginDto) {
    return this.admins.login(dto);
  }

  @Post('auth/forgot-password')
  @Access('PUB')
  @Endpoint({ summary: 'Send an administrator password-reset code', errors: [422], message: 'If the address is registered, a code has been sent.' })
  async forgotPassword(@Body() dto: EmailDto) {
    await this.admins.forgotPassword(dto.email);
    return withMessage(null, 'If the address is registered, a code has been sent.');
  }

  @Post('auth/verify-code')
  @Access('PUB')
  @Endpoint({ summary: 'Check a password-reset code without using it', errors: [422], type: CodeCheckDto, message: 'The code is valid.', codes: { 422: ['INVALID_CODE', 'CODE_EXPIRED', 'CODE_EXHAUSTED'] } })
  async verifyCode(@Body() dto: VerifyCodeDto) {
    await this.admins.verifyCode(dto);
    return withMessage({ valid: true }, 'The code is valid.');
  }

  @Post('auth/reset-password')
  @Access('PUB')
  @Endpoint({ summary: 'Set a new administrator password with the reset code', errors: [422], message: 'Password has been reset; log in with the new password.', codes: { 422: ['INVALID_CODE', 'CODE_EXPIRED', 'CODE_EXHAUSTED'] } })
  async resetPassword(@Body() dto: ResetPasswordDto) {
    await this.admins.resetPassword(dto);
    return withMessage(null, 'Password has been reset; log in with the new password.');
  }

  @Post('auth/refresh-token')
  @Access('PUB')
  @Endpoint({ summary: 'Exchange the current administrator token for a new one', type: TokenDto, errors: [422], codes: { 401: ['UNAUTHENTICATED', 'INVALID_TOKEN', 'TOKEN_EXPIRED', 'TOKEN_REVOKED'] } })
  refresh(@Headers('authorization') authorization: string | undefined, @Body() dto: RefreshTokenDto) {
    return this.tokens.refresh(dto.token ?? bearerOf(authorization), 'admin');
  }

  @Post('auth/logout')
  @Access('AD')
  @Endpoint({ summary: 'Revoke the current administrator token', message: 'Logged out.' })
  async logout(@CurrentActor() actor: Actor) {
    await this.tokens.revoke(actor.jti);
    return withMessage(null, 'Logged out.');
  }

  @Get('auth/me')
  @Access('AD')
  @Endpoint({ summary: 'The administrator\'s profile', type: AdminDto })
  me(@CurrentActor() actor: Actor) {
    return this.admins.profile(actor.id);
  }

  @Post('update-password')
  @Access('AD')
  @Endpoint({ summary: 'Change the administrator password (revokes other tokens)', errors: [422], message: 'Password updated.' })
  async updatePassword(@CurrentActor() actor: Actor, @Body() dto: UpdatePasswordDto) {
    await this.admins.updatePassword(actor, dto);
    return withMessage(null, 'Password updated.');
  }
}
