import { Injectable } from '@nestjs/common';
import { GenerateSql, SQL_SAMPLE } from '../../../database/generate-sql';
import { ModuleRepository } from '../../../database/repository';
import { ContactMessage } from './contact-message.entity';

/** Messages sent through the contact form (`contact_messages`): the module's SQL for them (docs/data-layer.md). */
@Injectable()
export class ContactMessageRepository extends ModuleRepository {

  /** Keeps a message of the user's; answers it as stored. */
  @GenerateSql({ params: [SQL_SAMPLE.actorId, 'Invoice question', 'Where is my invoice?'] })
  async insert(userId: string, subject: string, message: string): Promise<ContactMessage> {
    const row = this.locked.create(ContactMessage, { userId, subject, message });
    await this.locked.insert(ContactMessage, row);
    return this.locked.findOneByOrFail(ContactMessage, { id: row.id });
  }

  /** One message; null when there is none. */
  find(id: string): Promise<ContactMessage | null> {
    return this.m.findOneBy(ContactMessage, { id });
  }
}
