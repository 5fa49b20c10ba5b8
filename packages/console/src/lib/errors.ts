import { notifications } from '@mantine/notifications';

/** What the console needs from the client's ApiError, checked by shape so any refusal is handled alike. */
interface Refusal {
  status: number;
  code: string;
  message: string;
  details?: { field?: string; message: string }[];
  request_id?: string;
}

export function asRefusal(error: unknown): Refusal | null {
  if (typeof error === 'object' && error !== null && 'status' in error && 'code' in error && 'message' in error) {
    return error as Refusal;
  }
  return null;
}

/** One sentence a person can act on; the request ID lets support find the log line. */
export function describe(error: unknown): string {
  const refusal = asRefusal(error);
  if (refusal) return refusal.request_id ? `${refusal.message} (request ${refusal.request_id})` : refusal.message;
  if (error instanceof Error && error.name === 'NetworkError') return 'The service cannot be reached. Check the connection and try again.';
  return error instanceof Error ? error.message : 'Something went wrong';
}

/**
 * The API's field errors keyed by form field, for Mantine's `form.setErrors`. Fields are named as the
 * API names them (`body.price` and `price` both map to `price`); the rest of the message goes to a toast.
 */
export function fieldErrors(error: unknown): Record<string, string> {
  const refusal = asRefusal(error);
  const out: Record<string, string> = {};
  for (const detail of refusal?.details ?? []) {
    if (!detail.field) continue;
    const field = detail.field.replace(/^(body|query|params)[./]/, '').replaceAll('/', '.').replace(/^\./, '');
    out[field] ??= detail.message;
  }
  return out;
}

export function notifyError(error: unknown, title = 'Not saved'): void {
  notifications.show({ color: 'red', title, message: describe(error), autoClose: 8000 });
}

export function notifyDone(message: string): void {
  notifications.show({ color: 'teal', message, autoClose: 3000 });
}
