// `vr billing methods`: the saved cards of the account the session acts for (cards are added in the console).
import { JSON_HELP, JSON_OPTION, type Command } from '../command.js';
import { expectData } from '../context.js';
import { renderTable } from '../table.js';

export const billingMethodsCommand: Command = {
  name: 'billing methods',
  summary: 'List the saved cards (add one on the console\'s Billing page)',
  synopsis: 'billing methods [--json]',
  help: [JSON_HELP],
  options: { ...JSON_OPTION },
  async run(context, { values }) {
    const { client, tokenKind } = context.api('session');
    const body = await expectData(client.GET('/v1/billing/methods'), tokenKind);
    if (values.json) return context.printJson(body);
    context.print(renderTable([
      { header: 'ID', value: (method) => method.id },
      { header: 'CARD', value: (method) => `${method.brand} ending ${method.last4}` },
      { header: 'EXPIRES', value: (method) => `${String(method.expMonth).padStart(2, '0')}/${method.expYear}` },
    ], body.methods, `(no saved card: add one at ${context.settings.baseUrl}/console/billing)`));
  },
};
