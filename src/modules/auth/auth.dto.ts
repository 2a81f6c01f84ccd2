import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { CompanySummaryDto, UserDto } from '../users';
export { CompanySummaryDto, UserDto };
import { Transform } from 'class-transformer';
import { IsEmail, IsIn, IsNotEmpty, IsOptional, IsString, IsUUID, Length, Matches, MaxLength, MinLength } from 'class-validator';

const trim = ({ value }: { value: unknown }) => (typeof value === 'string' ? value.trim() : value);
const email = ({ value }: { value: unknown }) => (typeof value === 'string' ? value.trim().toLowerCase() : value);

/** E-mail field, normalised to lower case (its example is the document's, by schema: src/common/http/openapi-examples.ts). */
export function EmailField(): PropertyDecorator {
  return (target, key) => {
    ApiProperty({ format: 'email' })(target, key);
    Transform(email)(target, key);
    IsEmail()(target, key);
    MaxLength(254)(target, key);
  };
}

/** New-password field: 8 to 72 characters with a letter and a digit (`optional`: documented as such; add `@IsOptional()`). */
export function PasswordField(name = 'password', o: { optional?: boolean; description?: string } = {}): PropertyDecorator {
  return (target, key) => {
    (o.optional ? ApiPropertyOptional : ApiProperty)({ example: 'correct-horse-42', minLength: 8, maxLength: 72, description: `${name}: 8–72 characters, at least one letter and one digit.${o.description ? ' ' + o.description : ''}` })(target, key);
    IsString()(target, key);
    MinLength(8)(target, key);
    MaxLength(72)(target, key);
    Matches(/[A-Za-z]/, { message: 'must contain a letter' })(target, key);
    Matches(/\d/, { message: 'must contain a digit' })(target, key);
  };
}

export function NameField(): PropertyDecorator {
  return (target, key) => {
    ApiProperty({ maxLength: 120 })(target, key);
    Transform(trim)(target, key);
    IsString()(target, key);
    IsNotEmpty()(target, key);
    MaxLength(120)(target, key);
  };
}

export function PhoneField(): PropertyDecorator {
  return (target, key) => {
    ApiPropertyOptional({
      type: String,
      nullable: true,
      maxLength: 32,
      pattern: '^\\+?[0-9 ().-]{5,32}$',
      description: 'Phone number, preferably E.164 (`+15125550123`); null or omitted: none.',
    })(target, key);
    Transform(trim)(target, key);
    IsOptional()(target, key);
    IsString()(target, key);
    Matches(/^\+?[0-9 ().-]{5,32}$/, { message: 'must be a phone number' })(target, key);
  };
}

export class LoginDto {
  @EmailField() email: string;
  @ApiProperty({ example: 'correct-horse-42' }) @IsString() @IsNotEmpty() @MaxLength(200) password: string;
}

export class RegisterDto {
  @NameField() name: string;
  @EmailField() email: string;
  @PasswordField() password: string;
  @ApiProperty({ enum: ['company', 'customer'] }) @IsIn(['company', 'customer']) type: 'company' | 'customer';
  @ApiPropertyOptional({ format: 'uuid', description: 'Required for customers: the company they order from.' })
  @IsOptional()
  @IsUUID()
  company_id?: string;
  @PhoneField() phone?: string;
}

export class EmailDto {
  @EmailField() email: string;
}

export class VerifyCodeDto {
  @EmailField() email: string;
  @ApiProperty({ example: '042917', pattern: '^\\d{6}$' }) @IsString() @Length(6, 6) @Matches(/^\d{6}$/, { message: 'must be 6 digits' }) code: string;
}

export class ResetPasswordDto extends VerifyCodeDto {
  @PasswordField() password: string;
}

export class UpdatePasswordDto {
  @ApiProperty({ example: 'old-password-1' }) @IsString() @IsNotEmpty() @MaxLength(200) current_password: string;
  @PasswordField() password: string;
}

export class RefreshTokenDto {
  @ApiPropertyOptional({ description: 'The current token; alternatively send it as `Authorization: Bearer`.' })
  @IsOptional()
  @IsString()
  @MaxLength(4096)
  token?: string;
}

export class AdminRegisterDto {
  @NameField() name: string;
  @EmailField() email: string;
  @PasswordField() password: string;
  @ApiProperty({ description: 'Must equal the server\'s ADMIN_REGISTRATION_KEY.' }) @IsString() @IsNotEmpty() @MaxLength(500) registration_key: string;
}

// ---- responses ----

export class TokenDto {
  @ApiProperty() token: string;
  @ApiProperty({ example: 'bearer' }) token_type: string;
  @ApiProperty({ example: 2592000, description: 'Seconds until the token expires.' }) expires_in: number;
  @ApiPropertyOptional({ type: UserDto }) user?: UserDto;
}
