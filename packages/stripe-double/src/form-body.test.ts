import { describe, expect, it } from 'vitest';
import { parseFormBody } from './form-body.js';

describe('Stripe form bodies', () => {
  it('nests bracketed keys and keeps indexed arrays in order', () => {
    const body = parseFormBody('amount=1000&metadata[account_id]=a%20b&expand[1]=y&expand[0]=x&payment_method_types[]=card&setup_intent_data[metadata][k]=v');
    expect(body).toEqual({
      amount: '1000', metadata: { account_id: 'a b' }, expand: ['x', 'y'], payment_method_types: ['card'],
      setup_intent_data: { metadata: { k: 'v' } },
    });
  });

  it('decodes percent-encoded brackets the same way', () => {
    expect(parseFormBody('metadata%5Bkey%5D=value')).toEqual({ metadata: { key: 'value' } });
  });
});
