import { Column, Entity, Index, PrimaryColumn } from 'typeorm';
import { CreateDateColumn, UpdateDateColumn } from 'typeorm';

/** The customer profile of a `customer` user; its id is the user's id. */
@Entity('customers')
export class Customer {
  @PrimaryColumn({ type: 'uuid' })
  id: string;

  @Index()
  @Column({ type: 'uuid' })
  companyId: string;

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt: Date;

  @UpdateDateColumn({ type: 'timestamptz' })
  updatedAt: Date;
}
