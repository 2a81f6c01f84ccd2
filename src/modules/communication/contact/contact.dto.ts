import { ApiProperty } from '@nestjs/swagger';
import { TextField } from '../../../common/validation/fields';

/** `POST /contact-us`. */
export class ContactUsDto {
  @TextField({ max: 200, example: 'Question about my invoice' }) subject: string;
  @TextField({ max: 5000, example: 'Hello, the invoice for ORD-000042 shows two delivery fees. Could you check it?' }) message: string;
}

export class ContactMessageDto {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ example: 'Question about my invoice' }) subject: string;
  @ApiProperty({ example: 'Hello, the invoice for ORD-000042 shows two delivery fees. Could you check it?' }) message: string;
  @ApiProperty({ format: 'date-time' }) created_at: string;
}
