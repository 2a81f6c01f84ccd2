import { notificationRules, type NotificationRules } from '../../../common/outbox/notification-rules';
import { currencyDigits, formatMinor } from '../../../common/money';
import { orderNumber } from '../../orders';

const money = (amount: number, currency: string) => `${formatMinor(amount, currencyDigits(currency))} ${currency.toUpperCase()}`;
const num = (n: number) => orderNumber(n);
const plural = (n: number, one: string) => `${n} ${one}${n === 1 ? '' : 's'}`;
const JOB_NAMES: Record<string, string> = { delivery: 'delivery', pickup: 'pickup', swap: 'swap', dump_return: 'dump and return', relocate: 'relocation' };
const jobName = (type: string) => JOB_NAMES[type] ?? type;

/**
 * Event → who is told, with what title, body and ids (README "Notifications and live push" has the same
 * table), for the events of the modules below communication; a module may also register rules of its own
 * from its folder (`notificationRules` in its `notifications.ts`, src/common/outbox/notification-rules.ts).
 * The actor of an event is never told of what they did themselves. Events no rule names make no
 * notification.
 */
export const NOTIFICATION_RULES: NotificationRules = {
  'order.placed': (e) => [{ to: ['company'], title: `New order ${num(e.payload.number)}`, body: `Order ${num(e.payload.number)} was placed and waits for your approval.`, data: { order_id: e.aggregateId, customer_id: e.payload.customer_id } }],
  'order.approved': (e) => [{ to: [e.payload.customer_id], title: `Order ${num(e.payload.number)} approved`, body: `Your order ${num(e.payload.number)} was approved; we will tell you when its delivery is scheduled.`, data: { order_id: e.aggregateId } }],
  'order.rejected': (e) => [
    { to: [e.payload.customer_id], title: `Order ${num(e.payload.number)} rejected`, body: `Your order ${num(e.payload.number)} was rejected${e.payload.reason ? `: ${e.payload.reason}` : '.'}`, data: { order_id: e.aggregateId } },
  ],
  'order.scheduled': (e) => [{ to: [e.payload.customer_id], title: `Delivery of ${num(e.payload.number)} scheduled`, body: `A driver is assigned to deliver the container of order ${num(e.payload.number)}.`, data: { order_id: e.aggregateId } }],
  'order.delivered': (e) => [{ to: [e.payload.customer_id], title: 'Container delivered', body: `The container of order ${num(e.payload.number)} is on site.`, data: { order_id: e.aggregateId } }],
  'order.completed': (e) => [{ to: [e.payload.customer_id], title: `Order ${num(e.payload.number)} completed`, body: `The container was taken back and order ${num(e.payload.number)} is complete. Thank you!`, data: { order_id: e.aggregateId } }],
  // The other side: the customer cancelled → the company; the company (or the system) → the customer.
  'order.cancelled': (e) => {
    const fee = e.payload.late && e.payload.fee_amount ? ` A cancellation fee applies.` : '';
    const byCustomer = e.actorId === e.payload.customer_id;
    return [
      byCustomer
        ? { to: ['company'], title: `Order ${num(e.payload.number)} cancelled`, body: `The customer cancelled order ${num(e.payload.number)}.${fee}`, data: { order_id: e.aggregateId, customer_id: e.payload.customer_id } }
        : { to: [e.payload.customer_id], title: `Order ${num(e.payload.number)} cancelled`, body: `Your order ${num(e.payload.number)} was cancelled${e.payload.reason ? `: ${e.payload.reason}` : '.'}${fee}`, data: { order_id: e.aggregateId } },
    ];
  },
  'order.overdue': (e) => {
    const text = `${money(e.payload.balance_amount, e.payload.currency)} of order ${num(e.payload.number)} is ${plural(e.payload.days_overdue, 'day')} overdue (due ${e.payload.due_date}).`;
    return [
      { to: ['company'], title: `Payment overdue: ${num(e.payload.number)}`, body: text, data: { order_id: e.aggregateId, customer_id: e.payload.customer_id } },
      { to: [e.payload.customer_id], title: `Payment overdue: ${num(e.payload.number)}`, body: `${text} Please pay it at your earliest convenience.`, data: { order_id: e.aggregateId } },
    ];
  },
  'order_change_request.created': (e) => [
    { to: ['company'], title: `Change requested on ${num(e.payload.number)}`, body: `The customer asks to ${e.payload.type.replace(/_/g, ' ')} on order ${num(e.payload.number)}.`, data: { order_id: e.payload.order_id, order_change_request_id: e.aggregateId } },
  ],
  'order_change_request.approved': (e) => [
    { to: [e.payload.customer_id], title: 'Change request approved', body: `Your request to ${e.payload.type.replace(/_/g, ' ')} on order ${num(e.payload.number)} was approved.`, data: { order_id: e.payload.order_id, order_change_request_id: e.aggregateId } },
  ],
  'order_change_request.rejected': (e) => [
    { to: [e.payload.customer_id], title: 'Change request rejected', body: `Your request to ${e.payload.type.replace(/_/g, ' ')} was rejected: ${e.payload.reason}`, data: { order_id: e.payload.order_id, order_change_request_id: e.aggregateId } },
  ],

  'job.assigned': (e) => [{ to: [e.payload.driver_id], title: `New ${jobName(e.payload.type)} job`, body: `A ${jobName(e.payload.type)} job was assigned to you.`, data: { job_id: e.aggregateId, order_id: e.payload.order_id } }],
  'job.reassigned': (e) => [
    { to: [e.payload.to_driver_id], title: 'Job assigned to you', body: 'A job was moved to you; see your jobs for its date and stop.', data: { job_id: e.aggregateId, order_id: e.payload.order_id } },
    { to: [e.payload.from_driver_id], title: 'Job moved to another driver', body: 'A job of yours was given to another driver.', data: { job_id: e.aggregateId, order_id: e.payload.order_id } },
  ],
  'job.updated': async (e, ctx) => [
    { to: [await ctx.jobDriver(e.aggregateId)], title: 'Job changed', body: `Dispatch changed a job of yours (${e.payload.fields.join(', ').replace(/_/g, ' ')}).`, data: { job_id: e.aggregateId, order_id: e.payload.order_id } },
  ],
  'job.aborted': (e) => [{ to: [e.payload.driver_id], title: `${jobName(e.payload.type)[0].toUpperCase()}${jobName(e.payload.type).slice(1)} job cancelled`, body: `A job of yours was cancelled${e.payload.reason ? `: ${e.payload.reason}` : '.'}`, data: { job_id: e.aggregateId, order_id: e.payload.order_id } }],

  // Card charges that settled (succeeded or failed) and refunds; other ledger rows make none.
  'payment_transaction.recorded': (e) => {
    const p = e.payload;
    const amount = money(p.amount, p.currency);
    const data = { transaction_id: e.aggregateId, order_id: p.order_id, customer_id: p.customer_id };
    const own = { transaction_id: e.aggregateId, order_id: p.order_id };
    if (p.kind === 'charge' && p.status === 'succeeded') {
      return [
        { to: [p.customer_id], title: 'Payment received', body: `We received your payment of ${amount}. Thank you!`, data: own },
        { to: ['company'], title: 'Payment received', body: `A customer paid ${amount}.`, data },
      ];
    }
    if (p.kind === 'charge' && p.status === 'failed') {
      const why = p.failure_code ? ` (${p.failure_code.replace(/_/g, ' ')})` : '';
      return [
        { to: [p.customer_id], title: 'Payment failed', body: `Your payment of ${amount} failed${why}. Please try another card.`, data: own },
        { to: ['company'], title: 'Payment failed', body: `A customer's payment of ${amount} failed${why}.`, data },
      ];
    }
    if (p.kind === 'refund' && p.status === 'succeeded') {
      return [
        { to: [p.customer_id], title: 'Refund issued', body: `${amount} was refunded to you.`, data: own },
        { to: ['company'], title: 'Refund issued', body: `${amount} was refunded to a customer.`, data },
      ];
    }
    return [];
  },

  'policy_violation.recorded': (e) => [
    {
      to: [e.payload.customer_id],
      title: 'Policy violation recorded',
      body: `A policy violation was recorded on order ${num(e.payload.number)}: ${plural(e.payload.points, 'demerit point')}${e.payload.fee_amount ? `, fee ${money(e.payload.fee_amount, e.payload.currency)}` : ''}. You may dispute it.`,
      data: { policy_violation_id: e.aggregateId, order_id: e.payload.order_id },
    },
  ],
  // The other side of the dispute: a company message → the customer, a customer's → the company.
  'policy_violation.dispute_message_posted': (e) =>
    e.payload.author_type === 'company'
      ? [{ to: [e.payload.customer_id], title: 'New message on your dispute', body: 'The company answered on a disputed policy violation.', data: { policy_violation_id: e.aggregateId, order_id: e.payload.order_id, message_id: e.payload.message_id } }]
      : [
          {
            to: ['company'],
            title: e.payload.opened ? 'Violation disputed' : 'New dispute message',
            body: e.payload.opened ? 'A customer disputes a policy violation.' : 'A customer wrote on a disputed policy violation.',
            data: { policy_violation_id: e.aggregateId, order_id: e.payload.order_id, customer_id: e.payload.customer_id, message_id: e.payload.message_id },
          },
        ],
  'policy_violation.resolved': (e) => [
    {
      to: [e.payload.customer_id],
      title: e.payload.resolution === 'waived' ? 'Violation waived' : 'Violation upheld',
      body: e.payload.resolution === 'waived' ? 'A policy violation was waived: its points are removed and its fee credited.' : 'A policy violation was upheld: its points and fee stand.',
      data: { policy_violation_id: e.aggregateId, order_id: e.payload.order_id },
    },
  ],
  'customer.demerit_threshold_reached': (e) => [
    e.payload.level === 'block'
      ? { to: [e.aggregateId], title: 'Ordering blocked', body: `You have ${plural(e.payload.points, 'demerit point')} (the limit is ${e.payload.threshold}): new orders are blocked until points expire or are waived.`, data: { customer_id: e.aggregateId } }
      : { to: [e.aggregateId], title: 'Demerit points warning', body: `You have ${plural(e.payload.points, 'demerit point')} (warning at ${e.payload.threshold}).`, data: { customer_id: e.aggregateId } },
  ],

  'leave_request.submitted': (e) => [{ to: ['company'], title: 'Leave requested', body: `A driver asks for ${plural(e.payload.dates.length, 'day')} of ${e.payload.type} leave.`, data: { leave_request_id: e.aggregateId, driver_id: e.payload.driver_id } }],
  'leave_request.dates_decided': (e) => [
    {
      to: [e.payload.driver_id],
      title: e.payload.decision === 'approved' ? 'Leave approved' : e.payload.decision === 'rejected' ? 'Leave rejected' : 'Leave under review',
      body: `${e.payload.decision === 'in_review' ? 'Under review' : e.payload.decision === 'approved' ? 'Approved' : 'Rejected'}: ${e.payload.dates.join(', ')}.${e.payload.note ? ` ${e.payload.note}` : ''}`,
      data: { leave_request_id: e.aggregateId, leave_id: e.payload.leave_ids[0] },
    },
  ],
  'leave.cancelled': (e) => [{ to: [e.payload.driver_id], title: 'Leave cancelled', body: `Your leave from ${e.payload.start_date} to ${e.payload.end_date} was cancelled.${e.payload.note ? ` ${e.payload.note}` : ''}`, data: { leave_id: e.aggregateId, leave_request_id: e.payload.leave_request_id } }],
  'leave.revoked': (e) => [
    { to: [e.payload.driver_id], title: 'Leave shortened', body: `Your leave now ends on ${e.payload.end_date}; ${e.payload.revoked_from} to ${e.payload.revoked_to} are working days again.${e.payload.note ? ` ${e.payload.note}` : ''}`, data: { leave_id: e.aggregateId, leave_request_id: e.payload.leave_request_id } },
  ],

  'chat.message_posted': (e) => [{ to: e.payload.recipient_user_ids, title: 'New message', body: e.payload.preview, data: { chat_id: e.payload.chat_id, order_id: e.payload.order_id, message_id: e.payload.message_id } }],

  'company.plan_limit_near': (e) => [
    { to: ['company'], title: 'Plan limit near', body: `${e.payload.used} of ${e.payload.limit} ${e.payload.resource.replace(/_/g, ' ')} used on the ${e.payload.plan} plan.`, data: {} },
  ],
};

notificationRules(NOTIFICATION_RULES);
