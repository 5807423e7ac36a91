// Spend-cap windows: the UTC calendar day and the UTC calendar month. A window resets at 00:00 UTC
// (day) and at 00:00 UTC on the first of the month (month).
export type SpendCapKind = 'daily_spend_cap' | 'monthly_spend_cap';

export function spendWindowResets(now: Date): Record<SpendCapKind, Date> {
  const year = now.getUTCFullYear();
  const month = now.getUTCMonth();
  return {
    daily_spend_cap: new Date(Date.UTC(year, month, now.getUTCDate() + 1)),
    monthly_spend_cap: new Date(Date.UTC(year, month + 1, 1)),
  };
}
