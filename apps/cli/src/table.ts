// Aligned plain-text tables for people; `--json` is the format for scripts.
export interface Column<Row> {
  header: string;
  value: (row: Row) => string | number | null | undefined;
  /** Numbers and money read better right-aligned. */
  align?: 'left' | 'right';
}

function width(text: string): number {
  return [...text].length;
}

function pad(text: string, size: number, align: 'left' | 'right'): string {
  const fill = ' '.repeat(Math.max(0, size - width(text)));
  return align === 'right' ? fill + text : text + fill;
}

export function renderTable<Row>(columns: Array<Column<Row>>, rows: Row[], empty = '(none)'): string {
  if (rows.length === 0) return `${empty}\n`;
  const cells = rows.map((row) => columns.map((column) => {
    const value = column.value(row);
    // Cells stay on one line so columns stay aligned.
    return value === null || value === undefined ? '' : String(value).replace(/\s+/g, ' ');
  }));
  const sizes = columns.map((column, index) => Math.max(width(column.header), ...cells.map((line) => width(line[index]!))));
  const render = (line: string[]) =>
    line.map((cell, index) => pad(cell, sizes[index]!, columns[index]!.align ?? 'left')).join('  ').trimEnd();
  return [render(columns.map((column) => column.header)), ...cells.map(render)].join('\n') + '\n';
}

/** "2025-03-01T12:34:56.789Z" → "2025-03-01 12:34:56Z": shorter, still UTC and still sortable. */
export function formatTimestamp(iso: string | null | undefined): string {
  if (!iso) return '';
  return iso.replace('T', ' ').replace(/\.\d+(?=Z$)/, '');
}

/** Two aligned columns of label and value, for single records such as the wallet. */
export function renderPairs(pairs: Array<[string, string]>): string {
  const size = Math.max(...pairs.map(([label]) => width(label)));
  return pairs.map(([label, value]) => `${pad(label, size, 'left')}  ${value}`).join('\n') + '\n';
}
