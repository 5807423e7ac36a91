// Stripe's request encoding: `application/x-www-form-urlencoded` with bracketed keys for nesting
// (`metadata[account_id]=…`, `expand[0]=setup_intent`, `payment_method_types[]=card`). Every value
// arrives as text; each endpoint converts and validates what it reads.

export type FormValue = string | FormValue[] | { [key: string]: FormValue };
export type FormObject = { [key: string]: FormValue };

/** Splits `a[b][0]` into `['a', 'b', '0']`; a malformed key is kept whole. */
function keyPath(key: string): string[] {
  const match = /^([^[\]]+)((?:\[[^[\]]*\])*)$/.exec(key);
  if (!match) return [key];
  const rest = [...match[2]!.matchAll(/\[([^[\]]*)\]/g)].map((part) => part[1]!);
  return [match[1]!, ...rest];
}

function isIndex(segment: string): boolean {
  return segment === '' || /^\d{1,4}$/.test(segment);
}

function assign(target: FormObject | FormValue[], path: string[], value: string): void {
  const [head, ...rest] = path;
  if (head === undefined) return;
  const container = target as Record<string, FormValue>;
  if (Array.isArray(target) && head === '') {
    if (rest.length === 0) {
      target.push(value);
      return;
    }
    const child: FormObject | FormValue[] = isIndex(rest[0]!) ? [] : {};
    target.push(child);
    assign(child, rest, value);
    return;
  }
  if (rest.length === 0) {
    container[head] = value;
    return;
  }
  let child = container[head];
  if (child === undefined || typeof child === 'string') {
    child = isIndex(rest[0]!) ? [] : {};
    container[head] = child;
  }
  assign(child as FormObject | FormValue[], rest, value);
}

/** Indexed arrays may arrive with gaps or out of order; keep their order by index, densely. */
function compact(value: FormValue): FormValue {
  if (typeof value === 'string') return value;
  if (Array.isArray(value)) return value.filter((item) => item !== undefined).map(compact);
  const output: FormObject = {};
  for (const [key, item] of Object.entries(value)) output[key] = compact(item);
  return output;
}

export function parseFormBody(text: string): FormObject {
  const output: FormObject = {};
  for (const [key, value] of new URLSearchParams(text)) assign(output, keyPath(key), value);
  return compact(output) as FormObject;
}
