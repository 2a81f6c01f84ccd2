import { LedgerText } from '../../src/modules/payments/ledger/ledger-texts';

/** The ledger's descriptions: each names the order as people know it, and each movement has its own words. */
describe('ledger descriptions', () => {
  const texts: [string, string][] = [
    ['walletPayment', LedgerText.walletPayment(1)],
    ['allDuesFromWallet', LedgerText.allDuesFromWallet(1)],
    ['cardCharge', LedgerText.cardCharge(1)],
    ['duesCharge', LedgerText.duesCharge([1])],
    ['cancelledRefundToCard', LedgerText.cancelledRefundToCard(1)],
    ['cancelledRefundToWallet', LedgerText.cancelledRefundToWallet(1)],
    ['overpayment', LedgerText.overpayment(1)],
    ['waivedFee', LedgerText.waivedFee(1)],
    ['offlinePayment', LedgerText.offlinePayment(1, 'cheque', 'CHQ-004211')],
    ['providerRefund', LedgerText.providerRefund(1)],
    ['refundFailed', LedgerText.refundFailed(1)],
  ];

  it.each(texts)('%s names the order number (ORD-000001, not 1)', (_name, text) => {
    expect(text).toContain('ORD-000001');
    expect(text).not.toMatch(/ of 1\b/);
  });

  it('says each movement in its own words (a refund is not an overpayment, nor a waived fee)', () => {
    expect(new Set(texts.map(([, t]) => t)).size).toBe(texts.length);
    expect(LedgerText.waivedFee(1)).toBe('Waived policy fee of ORD-000001, credited to the wallet');
    expect(LedgerText.overpayment(42)).toBe('Overpayment of ORD-000042 on its final bill, credited to the wallet');
    expect(LedgerText.cancelledRefundToWallet(42)).toBe('Refund of ORD-000042 (cancelled) to the wallet');
  });

  it('names the orders of one charge for several dues, the first five', () => {
    expect(LedgerText.duesCharge([3, 7])).toBe('Dues of ORD-000003, ORD-000007');
    expect(LedgerText.duesCharge([1, 2, 3, 4, 5, 6, 7])).toBe('Dues of ORD-000001, ORD-000002, ORD-000003, ORD-000004, ORD-000005 and 2 more orders');
    expect(LedgerText.offlinePayment(42, 'bank_transfer', 'BT-77', 'Paid by the general contractor.')).toBe('Bank transfer payment of ORD-000042, reference BT-77: Paid by the general contractor.');
    // A refund whose order the ledger does not know (a charge without an order) still reads.
    expect(LedgerText.providerRefund(undefined)).toBe('Refund made at the payment provider');
  });
});
