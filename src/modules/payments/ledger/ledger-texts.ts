import { orderNumber } from '../../orders';

const OFFLINE_METHOD_WORDS: Record<string, string> = { cash: 'Cash', cheque: 'Cheque', bank_transfer: 'Bank transfer' };

/**
 * The descriptions of ledger rows (and of the charges the provider shows), one per kind of movement, each
 * naming its order as people know it (`ORD-000042`, never the bare number). A refund of a cancelled order,
 * an overpayment on a final bill and a waived fee are different movements and say so.
 */
/** Why money above the bill goes back (LedgerService.refundExcess). */
export type ExcessReason = 'cancelled' | 'rejected' | 'repriced' | 'completed' | 'waived';

/** Money above what an order bills, returned to the card or credited to the wallet: one text per reason and way. */
function excessReturned(reason: ExcessReason, n: number, to: 'card' | 'wallet'): string {
  const o = orderNumber(n);
  const way = to === 'card' ? 'refunded to the card' : 'credited to the wallet';
  switch (reason) {
    case 'cancelled':
      return `Refund of ${o} (cancelled) to the ${to}`;
    case 'rejected':
      return `Refund of ${o} (rejected) to the ${to}`;
    case 'repriced':
      return `Overpayment of ${o} after repricing, ${way}`;
    case 'completed':
      return `Overpayment of ${o} on its final bill, ${way}`;
    case 'waived':
      return `Waived policy fee of ${o}, ${way}`;
  }
}

export const LedgerText = {
  excessReturned,
  walletPayment: (n: number) => `Payment of ${orderNumber(n)} from the wallet`,
  allDuesFromWallet: (n: number) => `Payment of ${orderNumber(n)} from the wallet (all dues at once)`,
  /** The provider's description of a card charge for one order. */
  cardCharge: (n: number) => `Order ${orderNumber(n)}`,
  /** One card charge for several orders (the provider's description and a failed batch row): their numbers, the first few. */
  duesCharge: (numbers: readonly number[]) =>
    `Dues of ${numbers.slice(0, 5).map(orderNumber).join(', ')}${numbers.length > 5 ? ` and ${numbers.length - 5} more orders` : ''}`,
  cancelledRefundToCard: (n: number) => excessReturned('cancelled', n, 'card'),
  cancelledRefundToWallet: (n: number) => excessReturned('cancelled', n, 'wallet'),
  overpayment: (n: number) => excessReturned('completed', n, 'wallet'),
  waivedFee: (n: number) => excessReturned('waived', n, 'wallet'),
  /** A payment the company received off the platform: method, reference and the company's note. */
  offlinePayment: (n: number, method: string, reference: string, note?: string | null) =>
    `${OFFLINE_METHOD_WORDS[method] ?? method} payment of ${orderNumber(n)}, reference ${reference}${note ? `: ${note}` : ''}`,
  providerRefund: (n: number | undefined) => `Refund${n === undefined ? '' : ` of ${orderNumber(n)}`} made at the payment provider`,
  /** A chargeback the company lost (Stripe `charge.dispute.closed`, status lost). */
  disputeLost: (n: number | undefined) => `Dispute${n === undefined ? '' : ` of ${orderNumber(n)}`} lost at the payment provider`,
  /** The wallet credit already given for money the provider then returned to the card as well. */
  walletCreditTakenBack: (n: number | undefined) => `Wallet credit${n === undefined ? '' : ` of ${orderNumber(n)}`} taken back: the payment provider returned the money to the card`,
  refundFailed: (n: number | undefined) => `Refund${n === undefined ? '' : ` of ${orderNumber(n)}`} failed at the payment provider: credited to the wallet`,
};
