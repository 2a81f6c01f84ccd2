import { orderNumber } from '../../orders';

const OFFLINE_METHOD_WORDS: Record<string, string> = { cash: 'Cash', cheque: 'Cheque', bank_transfer: 'Bank transfer' };

/**
 * The descriptions of ledger rows (and of the charges the provider shows), one per kind of movement, each
 * naming its order as people know it (`ORD-000042`, never the bare number). A refund of a cancelled order,
 * an overpayment on a final bill and a waived fee are different movements and say so.
 */
export const LedgerText = {
  walletPayment: (n: number) => `Payment of ${orderNumber(n)} from the wallet`,
  allDuesFromWallet: (n: number) => `Payment of ${orderNumber(n)} from the wallet (all dues at once)`,
  /** The provider's description of a card charge for one order. */
  cardCharge: (n: number) => `Order ${orderNumber(n)}`,
  /** One card charge for several orders (the provider's description and a failed batch row): their numbers, the first few. */
  duesCharge: (numbers: readonly number[]) =>
    `Dues of ${numbers.slice(0, 5).map(orderNumber).join(', ')}${numbers.length > 5 ? ` and ${numbers.length - 5} more orders` : ''}`,
  cancelledRefundToCard: (n: number) => `Refund of ${orderNumber(n)} (cancelled) to the card`,
  cancelledRefundToWallet: (n: number) => `Refund of ${orderNumber(n)} (cancelled) to the wallet`,
  overpayment: (n: number) => `Overpayment of ${orderNumber(n)} on its final bill, credited to the wallet`,
  waivedFee: (n: number) => `Waived policy fee of ${orderNumber(n)}, credited to the wallet`,
  /** A payment the company received off the platform: method, reference and the company's note. */
  offlinePayment: (n: number, method: string, reference: string, note?: string | null) =>
    `${OFFLINE_METHOD_WORDS[method] ?? method} payment of ${orderNumber(n)}, reference ${reference}${note ? `: ${note}` : ''}`,
  providerRefund: (n: number | undefined) => `Refund${n === undefined ? '' : ` of ${orderNumber(n)}`} made at the payment provider`,
  refundFailed: (n: number | undefined) => `Refund${n === undefined ? '' : ` of ${orderNumber(n)}`} failed at the payment provider: credited to the wallet`,
};
