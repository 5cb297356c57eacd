/**
 * InnerTube's `$fields` is a server-side projection of the full response (Google's partial-response
 * syntax). When a request carries a mask that no recording was made with, an unmasked recording of
 * the same request can answer it through the same projection, as YouTube itself would. Only the
 * dotted-path form used by the recorded clients (`a,b.c.d`) is supported; anything else is refused
 * rather than guessed.
 */
type Json = unknown;

interface MaskTree {
  [name: string]: MaskTree | true;
}

export function parseFieldsMask(mask: string): MaskTree {
  if (/[()/*]/.test(mask)) throw new Error(`unsupported $fields syntax: ${mask}`);
  const tree: MaskTree = {};
  for (const path of mask
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean)) {
    let node = tree;
    const names = path.split('.');
    names.forEach((name, index) => {
      if (index === names.length - 1) {
        node[name] = true;
        return;
      }
      const existing = node[name];
      if (existing === true) return;
      if (existing) node = existing;
      else {
        const child = {};
        node[name] = child;
        node = child;
      }
    });
  }
  return tree;
}

function project(value: Json, tree: MaskTree): Json {
  if (Array.isArray(value)) return value.map((item) => project(item, tree));
  if (!value || typeof value !== 'object') return undefined;
  const source = value as Record<string, Json>;
  const out: Record<string, Json> = {};
  for (const [name, sub] of Object.entries(tree)) {
    if (!(name in source)) continue;
    const projected = sub === true ? source[name] : project(source[name], sub);
    if (projected !== undefined) out[name] = projected;
  }
  return out;
}

export function applyFieldsMask(body: Json, mask: string): Json {
  return project(body, parseFieldsMask(mask));
}
