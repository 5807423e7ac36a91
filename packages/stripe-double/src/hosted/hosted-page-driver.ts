// Drives the double's hosted pages over plain HTTP, as a browser without JavaScript would, for
// suites that have no real browser: enter a card in Checkout, answer a 3-D Secure challenge.
// Each returns where the page sent the browser next (the Location of its 303).

async function submit(pageUrl: string, fields: Record<string, string>): Promise<{ status: number; location: string | null; html: string }> {
  const page = await fetch(pageUrl, { redirect: 'manual' });
  const html = await page.text();
  if (page.status !== 200) throw new Error(`hosted page ${pageUrl} answered ${page.status}`);
  const form = /<form method="post" action="([^"]+)">([\s\S]*?)<\/form>/.exec(html);
  if (!form) throw new Error(`no form on ${pageUrl}`);
  const body = new URLSearchParams();
  for (const input of form[2]!.matchAll(/<input[^>]*name="([^"]+)"[^>]*value="([^"]*)"/g)) body.set(input[1]!, input[2]!.replace(/&amp;/g, '&'));
  for (const [name, value] of Object.entries(fields)) body.set(name, value);
  const response = await fetch(new URL(form[1]!.replace(/&amp;/g, '&'), pageUrl), { method: 'POST', body, redirect: 'manual' });
  return { status: response.status, location: response.headers.get('location'), html: await response.text() };
}

/** Enters `cardNumber` on a Checkout page; returns the next URL (success_url or a 3-D Secure page). */
export async function enterCardInCheckout(checkoutUrl: string, cardNumber: string): Promise<string> {
  const result = await submit(checkoutUrl, { card_number: cardNumber, action: 'save' });
  if (!result.location) {
    const error = /role="alert">([^<]*)</.exec(result.html)?.[1];
    throw new Error(`Checkout refused the card: ${error ?? result.status}`);
  }
  return result.location;
}

/** Completes or fails the challenge on a 3-D Secure page; returns the URL it sends the browser back to. */
export async function answerThreeDSecure(challengeUrl: string, outcome: 'complete' | 'fail'): Promise<string> {
  const result = await submit(challengeUrl, { action: outcome });
  if (!result.location) throw new Error(`the 3-D Secure page did not redirect (${result.status})`);
  return result.location;
}
