/** What one successful generation costs, in credits. */
export const CREDIT_COST = { image: 1, chat: 1 } as const;

/**
 * A key's balance. Reserving is synchronous, so concurrent requests can never spend the same
 * credit twice; a failed generation gives its reservation back.
 */
export class CreditAccount {
  constructor(private balance: number | null) {}

  get remaining(): number | null {
    return this.balance;
  }

  reserve(cost: number): boolean {
    if (this.balance === null) return true;
    if (this.balance < cost) return false;
    this.balance -= cost;
    return true;
  }

  refund(cost: number): void {
    if (this.balance !== null) this.balance += cost;
  }
}
