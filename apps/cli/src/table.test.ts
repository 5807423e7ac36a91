import { describe, expect, it } from 'vitest';
import { formatTimestamp, renderPairs, renderTable } from './table.js';

interface Row { name: string; cost: string; count: number | null }

const columns = [
  { header: 'NAME', value: (row: Row) => row.name },
  { header: 'COST', value: (row: Row) => row.cost, align: 'right' as const },
  { header: 'N', value: (row: Row) => row.count, align: 'right' as const },
];

describe('renderTable', () => {
  it('aligns columns, numbers to the right, with no trailing spaces', () => {
    const text = renderTable(columns, [
      { name: 'local', cost: '$0.000315', count: 3 },
      { name: 'elevenlabs', cost: '$12.50', count: 120 },
    ]);
    expect(text).toBe([
      'NAME             COST    N',
      'local       $0.000315    3',
      'elevenlabs     $12.50  120',
      '',
    ].join('\n'));
  });

  it('prints the empty note when there are no rows, and blanks for missing values', () => {
    expect(renderTable(columns, [], '(nothing)')).toBe('(nothing)\n');
    expect(renderTable(columns, [{ name: 'x', cost: '$1.00', count: null }])).toBe('NAME   COST  N\nx     $1.00\n');
  });

  it('keeps every row on one line and measures characters, not UTF-16 units', () => {
    const text = renderTable([{ header: 'A', value: (row: { a: string }) => row.a }, { header: 'B', value: () => 'b' }], [
      { a: 'two\nlines' },
      { a: '😀' },
    ]);
    expect(text.split('\n')).toEqual(['A          B', 'two lines  b', '😀          b', '']);
  });
});

describe('renderPairs and formatTimestamp', () => {
  it('aligns labels', () => {
    expect(renderPairs([['Balance', '$1.00'], ['Spendable', '$0.50']])).toBe('Balance    $1.00\nSpendable  $0.50\n');
  });

  it('shortens ISO timestamps but keeps them UTC', () => {
    expect(formatTimestamp('2025-03-01T12:34:56.789Z')).toBe('2025-03-01 12:34:56Z');
    expect(formatTimestamp(null)).toBe('');
  });
});
