export interface GroundCitationsInput<C> {
  /** Claims as the model wrote them. */
  claims: readonly C[];
  /** The ids the model was given (evidence ids, the report's video ids, …): the only ones a claim may cite. */
  allowedIds: Iterable<string>;
  getIds: (claim: C) => readonly string[];
  /** A copy of `claim` citing `ids` instead (the input is never changed). */
  setIds: (claim: C, ids: string[]) => C;
}

export interface DroppedClaim<C> {
  /** Position in the input. */
  index: number;
  claim: C;
  /** The ids it cited, none of them allowed (empty when it cited nothing). */
  unknownIds: string[];
}

export interface GroundedClaims<C> {
  /** The claims left, in input order, each citing only allowed ids, at least one. */
  claims: C[];
  dropped: DroppedClaim<C>[];
  repaired: { index: number; removedIds: string[] }[];
  /** One line per drop or repair, for `meta.warnings`. */
  warnings: string[];
}

/**
 * Holds a model's claims to the evidence it was given: ids outside `allowedIds` are removed, a claim
 * left citing nothing is dropped. A claim citing nothing real never passes through.
 */
export function groundCitations<C>({ claims, allowedIds, getIds, setIds }: GroundCitationsInput<C>): GroundedClaims<C> {
  const allowed = new Set(allowedIds);
  const result: GroundedClaims<C> = { claims: [], dropped: [], repaired: [], warnings: [] };
  claims.forEach((claim, index) => {
    const cited = [...new Set(getIds(claim))];
    const kept = cited.filter((id) => allowed.has(id));
    const unknown = cited.filter((id) => !allowed.has(id));
    if (kept.length === 0) {
      result.dropped.push({ index, claim, unknownIds: unknown });
      result.warnings.push(
        unknown.length > 0
          ? `Dropped a claim citing only unknown sources (${unknown.join(', ')}).`
          : 'Dropped a claim that cited no sources.',
      );
      return;
    }
    if (unknown.length > 0) {
      result.repaired.push({ index, removedIds: unknown });
      result.warnings.push(`Removed unknown sources (${unknown.join(', ')}) from a claim.`);
    }
    result.claims.push(kept.length === getIds(claim).length ? claim : setIds(claim, kept));
  });
  return result;
}
