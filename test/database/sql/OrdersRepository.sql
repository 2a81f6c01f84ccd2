-- OrdersRepository: statement snapshots (test/database/sql-snapshots.spec.ts; UPDATE_SQL_SNAPSHOTS=1 rewrites)

-- OrdersRepository.count
SELECT count(*)::int AS n FROM orders o WHERE o.company_id = $1 AND o.status = $2;

-- OrdersRepository.countByStatus
SELECT coalesce(sum(c.n), 0)::int AS n FROM order_status_counts c WHERE c.company_id = $1 AND c.customer_id = $2 AND c.status IN ($3, $4);

-- OrdersRepository.filters: skipped (private: builds the filters, no statement)

-- OrdersRepository.page (first page)
SELECT o.id, o.number, o.status, o.payment_status, o.customer_id, o.address_id, o.address, o.lot_id, o.asset_specification_id, o.waste_type_id, o.delivery_date::text AS delivery_date, o.pickup_date::text AS pickup_date, o.time_window, o.notes, o.promotion_code, o.currency, o.subtotal_amount, o.discount_amount, o.tax_amount, o.total_amount, o.paid_amount, o.due_date::text AS due_date, o.delivered_on::text AS delivered_on, o.rejection_reason, o.cancellation_reason, o.feedback_rating, o.feedback_comment, o.created_at, o.updated_at, (SELECT u.name FROM users u WHERE u.id = o.customer_id) AS name_customer, (SELECT s.name FROM asset_specifications s WHERE s.id = o.asset_specification_id) AS name_specification, (SELECT w.name FROM waste_types w WHERE w.id = o.waste_type_id) AS name_waste_type FROM orders o WHERE o.company_id = $1 ORDER BY o.created_at DESC, o.id DESC LIMIT $2 OFFSET $3;

-- OrdersRepository.page (filtered, with the counted total)
SELECT o.id, o.number, o.status, o.payment_status, o.customer_id, o.address_id, o.address, o.lot_id, o.asset_specification_id, o.waste_type_id, o.delivery_date::text AS delivery_date, o.pickup_date::text AS pickup_date, o.time_window, o.notes, o.promotion_code, o.currency, o.subtotal_amount, o.discount_amount, o.tax_amount, o.total_amount, o.paid_amount, o.due_date::text AS due_date, o.delivered_on::text AS delivered_on, o.rejection_reason, o.cancellation_reason, o.feedback_rating, o.feedback_comment, o.created_at, o.updated_at, (SELECT u.name FROM users u WHERE u.id = o.customer_id) AS name_customer, (SELECT s.name FROM asset_specifications s WHERE s.id = o.asset_specification_id) AS name_specification, (SELECT w.name FROM waste_types w WHERE w.id = o.waste_type_id) AS name_waste_type, (SELECT coalesce(sum(c.n), 0)::int FROM order_status_counts c WHERE c.company_id = $5 AND c.customer_id = $6 AND c.status IN ($7)) AS total_count FROM orders o WHERE o.company_id = $1 AND o.customer_id = $2 AND o.status = $3 AND o.delivery_date >= $4 ORDER BY o.delivery_date ASC, o.id ASC LIMIT $8 OFFSET $9;

-- OrdersRepository.read (without lines)
SELECT o.id, o.number, o.status, o.payment_status, o.customer_id, o.address_id, o.address, o.lot_id, o.asset_specification_id, o.waste_type_id, o.delivery_date::text AS delivery_date, o.pickup_date::text AS pickup_date, o.time_window, o.notes, o.promotion_code, o.currency, o.subtotal_amount, o.discount_amount, o.tax_amount, o.total_amount, o.paid_amount, o.due_date::text AS due_date, o.delivered_on::text AS delivered_on, o.rejection_reason, o.cancellation_reason, o.feedback_rating, o.feedback_comment, o.created_at, o.updated_at, (SELECT u.name FROM users u WHERE u.id = o.customer_id) AS name_customer, (SELECT s.name FROM asset_specifications s WHERE s.id = o.asset_specification_id) AS name_specification, (SELECT w.name FROM waste_types w WHERE w.id = o.waste_type_id) AS name_waste_type FROM orders o WHERE o.company_id = $1 AND o.id = $2;

-- OrdersRepository.read (with lines)
SELECT o.id, o.number, o.status, o.payment_status, o.customer_id, o.address_id, o.address, o.lot_id, o.asset_specification_id, o.waste_type_id, o.delivery_date::text AS delivery_date, o.pickup_date::text AS pickup_date, o.time_window, o.notes, o.promotion_code, o.currency, o.subtotal_amount, o.discount_amount, o.tax_amount, o.total_amount, o.paid_amount, o.due_date::text AS due_date, o.delivered_on::text AS delivered_on, o.rejection_reason, o.cancellation_reason, o.feedback_rating, o.feedback_comment, o.created_at, o.updated_at, (SELECT u.name FROM users u WHERE u.id = o.customer_id) AS name_customer, (SELECT s.name FROM asset_specifications s WHERE s.id = o.asset_specification_id) AS name_specification, (SELECT w.name FROM waste_types w WHERE w.id = o.waste_type_id) AS name_waste_type, (SELECT coalesce(json_agg(json_build_object('kind', l.kind, 'description', l.description, 'quantity', l.quantity, 'unit_amount', l.unit_amount, 'amount', l.amount) ORDER BY l.position), '[]'::json) FROM order_lines l WHERE l.order_id = o.id AND l.voided_at IS NULL) AS live_lines FROM orders o WHERE o.company_id = $1 AND o.customer_id = $2 AND o.id = $3;

-- OrdersRepository.run: skipped (private: runs the statements of the methods below)

-- OrdersRepository.scoped: skipped (private: builds a WHERE clause, no statement)
