// Redis reports every failed reconnect (about once a second per connection): one line per distinct
// problem per window keeps an outage visible without flooding the logs.
export function createLogThrottle(windowMs = 60_000): (error: unknown) => boolean {
  let last = { message: '', at: 0 };
  return (error) => {
    const message = String((error as Error)?.message ?? error);
    if (message === last.message && Date.now() - last.at < windowMs) return false;
    last = { message, at: Date.now() };
    return true;
  };
}
