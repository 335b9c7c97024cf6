/** PostgreSQL's `EXPLAIN (FORMAT JSON)` read as a flat list of plan nodes, for query-plan tests. */

/** The fields of a plan node the tests look at. */
export interface PgNode {
  'Node Type': string;
  'Relation Name'?: string;
  'Index Name'?: string;
  'Actual Rows'?: number;
  Plans?: PgNode[];
}

/** Every node of a plan, top first; `plan` is the `QUERY PLAN` column, as text or parsed. */
export function planNodes(plan: unknown): PgNode[] {
  const nodes: PgNode[] = [];
  const walk = (node: PgNode) => {
    nodes.push(node);
    for (const child of node.Plans ?? []) walk(child);
  };
  for (const top of (typeof plan === 'string' ? JSON.parse(plan) : plan) as { Plan: PgNode }[]) walk(top.Plan);
  return nodes;
}
