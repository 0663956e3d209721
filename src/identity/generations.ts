/**
 * The generation that caches of identity (key → principal) are tagged with. Bump it after any change
 * that could alter what a key may do: revocation, role, attributes, plan, membership. A bump through
 * Redis reaches every instance before the changing request answers, which makes the change take
 * effect on the very next request everywhere.
 */
export const IDENTITY_GENERATION = 'identity';
