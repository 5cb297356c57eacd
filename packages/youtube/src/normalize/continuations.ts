import { ReloadContinuationItemsCommand, YTNodes, type Helpers, type IParsedResponse } from 'youtubei.js';

type ContinuationItem = InstanceType<typeof YTNodes.ContinuationItem>;

/** The token a continuation item (or its "show more" button) carries, as YouTube issued it. */
export function tokenOf(item: ContinuationItem | undefined): string | undefined {
  const endpoint = item?.button?.as(YTNodes.Button).endpoint ?? item?.endpoint;
  const token = (endpoint?.payload as { token?: unknown } | undefined)?.token;
  return typeof token === 'string' ? token : undefined;
}

/**
 * All items a response delivers through continuation commands, first pages and later pages alike
 * (reloadContinuationItemsCommand / appendContinuationItemsAction, as endpoints, actions or commands).
 */
export function continuationContents(page: IParsedResponse): Helpers.YTNode[] {
  const groups = [
    ...(page.on_response_received_endpoints ?? []),
    ...(page.on_response_received_actions ?? []),
    ...(page.on_response_received_commands ?? []),
  ];
  return groups.flatMap((group) =>
    group.is(YTNodes.AppendContinuationItemsAction, ReloadContinuationItemsCommand) ? [...(group.contents ?? [])] : [],
  );
}

/** The last continuation item among `nodes`, which is the one that leads to the next page. */
export function nextToken(nodes: Helpers.YTNode[]): string | undefined {
  const items = nodes.filter((node): node is ContinuationItem => node.is(YTNodes.ContinuationItem));
  return tokenOf(items.at(-1));
}
