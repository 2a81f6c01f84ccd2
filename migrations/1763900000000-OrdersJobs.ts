import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Orders (lines, status history, change requests), the per-company order counter that numbers them
 * without gaps, and the jobs table that approval fills (dispatch takes it over).
 */
export class OrdersJobs1763900000000 implements MigrationInterface {
  name = 'OrdersJobs1763900000000';

  async up(q: QueryRunner): Promise<void> {
    // One row per company; placement increments it inside its transaction, so a rolled-back placement
    // gives its number back and concurrent placements queue on the row lock.
    await q.query(`
      CREATE TABLE order_counters (
        company_id uuid PRIMARY KEY REFERENCES companies (id),
        last_number int NOT NULL
      )`);

    await q.query(`
      CREATE TABLE orders (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        company_id uuid NOT NULL REFERENCES companies (id),
        customer_id uuid NOT NULL REFERENCES customers (id),
        number int NOT NULL,
        status text NOT NULL DEFAULT 'pending'
          CHECK (status IN ('pending', 'approved', 'rejected', 'scheduled', 'delivered', 'completed', 'cancelled')),
        payment_status text NOT NULL DEFAULT 'unpaid' CHECK (payment_status IN ('unpaid', 'partially_paid', 'paid', 'refunded')),
        address_id uuid NOT NULL REFERENCES customer_addresses (id),
        address jsonb NOT NULL,
        lot_id uuid NOT NULL REFERENCES lots (id),
        asset_specification_id uuid NOT NULL REFERENCES asset_specifications (id),
        waste_type_id uuid NOT NULL REFERENCES waste_types (id),
        delivery_date date NOT NULL,
        pickup_date date,
        time_window text NOT NULL DEFAULT 'anytime' CHECK (time_window IN ('anytime', 'morning', 'afternoon')),
        notes text,
        promotion_id uuid REFERENCES promotions (id),
        promotion_code text,
        terms jsonb NOT NULL,
        currency char(3) NOT NULL,
        subtotal_amount int NOT NULL,
        discount_amount int NOT NULL,
        tax_amount int NOT NULL,
        total_amount int NOT NULL,
        paid_amount int NOT NULL DEFAULT 0,
        due_date date NOT NULL,
        delivered_on date,
        approved_at timestamptz,
        completed_at timestamptz,
        cancelled_at timestamptz,
        cancellation_reason text,
        rejection_reason text,
        feedback_rating smallint CHECK (feedback_rating BETWEEN 1 AND 5),
        feedback_comment text,
        feedback_at timestamptz,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        CHECK (pickup_date IS NULL OR pickup_date >= delivery_date)
      )`);
    await q.query(`CREATE UNIQUE INDEX uq_orders_company_number ON orders (company_id, number)`);
    // Company lists: by status and delivery date; customer lists: by customer.
    await q.query(`CREATE INDEX idx_orders_company_status_delivery ON orders (company_id, status, delivery_date)`);
    await q.query(`CREATE INDEX idx_orders_company_delivery ON orders (company_id, delivery_date)`);
    await q.query(`CREATE INDEX idx_orders_customer ON orders (customer_id, status)`);
    await q.query(`CREATE INDEX idx_orders_address ON orders (address_id)`);
    await q.query(`CREATE INDEX idx_orders_lot ON orders (lot_id)`);
    await q.query(`CREATE INDEX idx_orders_spec ON orders (asset_specification_id)`);
    await q.query(`CREATE INDEX idx_orders_waste_type ON orders (waste_type_id)`);
    await q.query(`CREATE INDEX idx_orders_promotion ON orders (promotion_id) WHERE promotion_id IS NOT NULL`);

    await q.query(`
      CREATE TABLE order_lines (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        company_id uuid NOT NULL REFERENCES companies (id),
        order_id uuid NOT NULL REFERENCES orders (id) ON DELETE CASCADE,
        kind text NOT NULL,
        source text NOT NULL CHECK (source IN ('placement', 'change_request', 'final', 'cancellation')),
        change_request_id uuid,
        description text NOT NULL,
        quantity int NOT NULL,
        unit_amount int NOT NULL,
        amount int NOT NULL,
        position int NOT NULL,
        voided_at timestamptz,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE INDEX idx_order_lines_company ON order_lines (company_id)`);
    await q.query(`CREATE INDEX idx_order_lines_order ON order_lines (order_id, position)`);

    await q.query(`
      CREATE TABLE order_status_history (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        company_id uuid NOT NULL REFERENCES companies (id),
        order_id uuid NOT NULL REFERENCES orders (id) ON DELETE CASCADE,
        from_status text,
        to_status text NOT NULL,
        actor_id uuid,
        actor_type text NOT NULL,
        reason text,
        -- clock_timestamp: moves made in one transaction (placement + auto-approval) keep their order.
        created_at timestamptz NOT NULL DEFAULT clock_timestamp()
      )`);
    await q.query(`CREATE INDEX idx_order_status_history_company ON order_status_history (company_id)`);
    await q.query(`CREATE INDEX idx_order_status_history_order ON order_status_history (order_id, created_at)`);

    await q.query(`
      CREATE TABLE order_change_requests (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        company_id uuid NOT NULL REFERENCES companies (id),
        order_id uuid NOT NULL REFERENCES orders (id) ON DELETE CASCADE,
        customer_id uuid NOT NULL REFERENCES customers (id),
        type text NOT NULL CHECK (type IN ('reschedule_delivery', 'schedule_pickup', 'extend_rental', 'swap', 'dump_return', 'relocate', 'change_waste_type', 'change_specification')),
        status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'approved', 'rejected')),
        details jsonb NOT NULL,
        note text,
        rejection_reason text,
        decided_by uuid,
        decided_at timestamptz,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    // One pending request per order, enforced by the database as well as by the service.
    await q.query(`CREATE UNIQUE INDEX uq_order_change_requests_pending ON order_change_requests (order_id) WHERE status = 'pending'`);
    await q.query(`CREATE INDEX idx_order_change_requests_company_status ON order_change_requests (company_id, status, created_at)`);
    await q.query(`CREATE INDEX idx_order_change_requests_order ON order_change_requests (order_id)`);
    await q.query(`CREATE INDEX idx_order_change_requests_customer ON order_change_requests (customer_id, status)`);
    await q.query(`ALTER TABLE order_lines ADD CONSTRAINT fk_order_lines_change_request FOREIGN KEY (change_request_id) REFERENCES order_change_requests (id)`);
    await q.query(`CREATE INDEX idx_order_lines_change_request ON order_lines (change_request_id) WHERE change_request_id IS NOT NULL`);

    await q.query(`
      CREATE TABLE jobs (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        company_id uuid NOT NULL REFERENCES companies (id),
        order_id uuid NOT NULL REFERENCES orders (id),
        type text NOT NULL CHECK (type IN ('delivery', 'pickup', 'swap', 'dump_return', 'relocate')),
        status text NOT NULL DEFAULT 'unassigned' CHECK (status IN ('unassigned', 'assigned', 'in_progress', 'completed', 'aborted')),
        scheduled_date date NOT NULL,
        sequence int,
        driver_id uuid REFERENCES drivers (id),
        truck_id uuid REFERENCES trucks (id),
        asset_id uuid REFERENCES assets (id),
        lot_id uuid REFERENCES lots (id),
        destination_address_id uuid REFERENCES customer_addresses (id),
        change_request_id uuid REFERENCES order_change_requests (id),
        notes text,
        abort_reason text,
        started_at timestamptz,
        completed_at timestamptz,
        aborted_at timestamptz,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE INDEX idx_jobs_company_date_status ON jobs (company_id, scheduled_date, status)`);
    await q.query(`CREATE INDEX idx_jobs_order ON jobs (order_id)`);
    await q.query(`CREATE INDEX idx_jobs_driver_date ON jobs (driver_id, scheduled_date) WHERE driver_id IS NOT NULL`);
    await q.query(`CREATE INDEX idx_jobs_truck ON jobs (truck_id) WHERE truck_id IS NOT NULL`);
    await q.query(`CREATE INDEX idx_jobs_asset ON jobs (asset_id) WHERE asset_id IS NOT NULL`);
    await q.query(`CREATE INDEX idx_jobs_lot ON jobs (lot_id) WHERE lot_id IS NOT NULL`);
    await q.query(`CREATE INDEX idx_jobs_destination_address ON jobs (destination_address_id) WHERE destination_address_id IS NOT NULL`);
    await q.query(`CREATE INDEX idx_jobs_change_request ON jobs (change_request_id) WHERE change_request_id IS NOT NULL`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE IF EXISTS jobs`);
    await q.query(`ALTER TABLE order_lines DROP CONSTRAINT IF EXISTS fk_order_lines_change_request`);
    await q.query(`DROP TABLE IF EXISTS order_change_requests`);
    await q.query(`DROP TABLE IF EXISTS order_status_history`);
    await q.query(`DROP TABLE IF EXISTS order_lines`);
    await q.query(`DROP TABLE IF EXISTS orders`);
    await q.query(`DROP TABLE IF EXISTS order_counters`);
  }
}
