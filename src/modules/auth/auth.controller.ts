import { Body, Controller, Get, Headers, Post } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { Access } from '../../common/access/access.decorator';
import { Actor, CallerProfile, CurrentActor, WithCallerProfile } from '../../common/access/actor';
import { withMessage } from '../../common/http/envelope';
import { Endpoint } from '../../common/http/openapi';
import { UsersService } from '../users';
import { EmailDto, LoginDto, RefreshTokenDto, RegisterDto, ResetPasswordDto, TokenDto, UpdatePasswordDto, UserDto, VerifyCodeDto } from './auth.dto';
import { AuthService } from './auth.service';
import { TokenService } from './token.service';

export const bearerOf = (header: string | undefined): string | undefined => /^Bearer\s+(\S+)$/i.exec(header ?? '')?.[1];

@ApiTags('Auth')
@Controller('api/v1/auth')
export class AuthController {
  constructor(
    private readonly auth: AuthService,
    private readonly tokens: TokenService,
    private readonly users: UsersService,
  ) {}

  @Post('register')
  @Access('PUB-T')
  @Endpoint({ summary: 'Register a company user or a self-service customer', type: TokenDto, status: 201, errors: [409, 422], codes: { 409: ['EMAIL_TAKEN'] } })
  register(@Body() dto: RegisterDto) {
    return this.auth.register(dto);
  }

  @Post('login')
  @Access('PUB-T')
  @Endpoint({ summary: 'Log in with e-mail and password', type: TokenDto, errors: [422], codes: { 401: ['INVALID_CREDENTIALS'] } })
  login(@Body() dto: LoginDto) {
    return this.auth.login(dto);
  }

  @Post('get-otp')
  @Access('PUB-T')
  @Endpoint({ summary: 'Send a one-time code that verifies the e-mail address', description: 'Answers the same whether or not the address is registered.', errors: [422], message: 'If the address is registered, a code has been sent.' })
  async getOtp(@Body() dto: EmailDto) {
    await this.auth.sendVerificationCode(dto.email);
    return withMessage(null, 'If the address is registered, a code has been sent.');
  }

  @Post('verify-code')
  @Access('PUB-T')
  @Endpoint({ summary: 'Verify the e-mail address with the one-time code', errors: [422], message: 'E-mail address verified.', codes: { 422: ['INVALID_CODE', 'CODE_EXPIRED', 'CODE_EXHAUSTED'] } })
  async verifyCode(@Body() dto: VerifyCodeDto) {
    await this.auth.verifyEmail(dto);
    return withMessage(null, 'E-mail address verified.');
  }

  @Post('forgot-password')
  @Access('PUB-T')
  @Endpoint({ summary: 'Send a password-reset code', description: 'Answers the same whether or not the address is registered.', errors: [422], message: 'If the address is registered, a code has been sent.' })
  async forgotPassword(@Body() dto: EmailDto) {
    await this.auth.forgotPassword(dto.email);
    return withMessage(null, 'If the address is registered, a code has been sent.');
  }

  @Post('reset-password')
  @Access('PUB-T')
  @Endpoint({ summary: 'Set a new password with the reset code', description: 'Revokes every token of the user.', errors: [422], message: 'Password has been reset; log in with the new password.', codes: { 422: ['INVALID_CODE', 'CODE_EXPIRED', 'CODE_EXHAUSTED'] } })
  async resetPassword(@Body() dto: ResetPasswordDto) {
    await this.auth.resetPassword(dto);
    return withMessage(null, 'Password has been reset; log in with the new password.');
  }

  @Post('refresh-token')
  @Access('PUB-T')
  @Endpoint({ summary: 'Exchange the current token for a new one', description: 'Takes the token as a bearer header or as `token` in the body, even expired up to 14 days past expiry; the old one is revoked.', type: TokenDto, errors: [422], codes: { 401: ['UNAUTHENTICATED', 'INVALID_TOKEN', 'TOKEN_EXPIRED', 'TOKEN_REVOKED'] } })
  refresh(@Headers('authorization') authorization: string | undefined, @Body() dto: RefreshTokenDto) {
    return this.tokens.refresh(dto.token ?? bearerOf(authorization), 'user');
  }

  @Post('logout')
  @Access('TOK')
  @Endpoint({ summary: 'Revoke the current token', message: 'Logged out.' })
  async logout(@CurrentActor() actor: Actor) {
    await this.tokens.revoke(actor.jti);
    return withMessage(null, 'Logged out.');
  }

  @Get('me')
  @Access('TOK')
  @Endpoint({ summary: 'The caller\'s profile', type: UserDto })
  @WithCallerProfile()
  me(@CurrentActor() actor: Actor, @CallerProfile() profile: UserDto | undefined) {
    // The caller's query brought the profile (one statement; AuthModule registers the users module's columns).
    return profile ?? this.users.profile(actor.id);
  }

  @Post('update-password')
  @Access('TOK-ACT')
  @Endpoint({ summary: 'Change the password', description: 'Revokes every other token of the user.', errors: [422], message: 'Password updated.' })
  async updatePassword(@CurrentActor() actor: Actor, @Body() dto: UpdatePasswordDto) {
    await this.auth.updatePassword(actor, dto);
    return withMessage(null, 'Password updated.');
  }
}
