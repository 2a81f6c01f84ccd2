import { mailNotifications, notificationRules } from '../../common/outbox/notification-rules';

const JOB_NAMES: Record<string, string> = { delivery: 'delivery', pickup: 'pickup', swap: 'swap', dump_return: 'dump and return', relocate: 'relocation' };

/**
 * Dispatch's notification rules (src/common/outbox/notification-rules.ts; docs/notifications.md): the
 * arrival times of issue #26 tell the order's customer, by notification, live push and mail, when the
 * driver sets off toward their stop and when the arrival slips past what they were last told. Times are
 * the company's (`expected_local`, its time zone).
 */
notificationRules({
  'job.arrival_on_the_way': (e) => [
    {
      to: [e.payload.customer_id],
      title: `Driver on the way, about ${e.payload.expected_local}`,
      body: `The driver is on the way for the ${JOB_NAMES[e.payload.type] ?? e.payload.type} of order ${e.payload.order_number}: arriving about ${e.payload.expected_local}.`,
      data: { order_id: e.payload.order_id, job_id: e.aggregateId, expected_at: e.payload.expected_at },
    },
  ],
  'job.arrival_slipped': (e) => [
    {
      to: [e.payload.customer_id],
      title: `Driver delayed: now about ${e.payload.expected_local}`,
      body: `The driver for the ${JOB_NAMES[e.payload.type] ?? e.payload.type} of order ${e.payload.order_number} is running late: now arriving about ${e.payload.expected_local} (we said ${e.payload.previously_told_local}).`,
      data: { order_id: e.payload.order_id, job_id: e.aggregateId, expected_at: e.payload.expected_at },
    },
  ],
});

mailNotifications('job.arrival_on_the_way', 'job.arrival_slipped');
