import { error, type RequestEvent } from '@sveltejs/kit';

/**
 * The form a page posted. A body that is no form (multipart without its boundary or cut short,
 * bytes that do not parse) is the sender's mistake: the 400 page in words, not an error of ours.
 */
export async function formOf(event: RequestEvent): Promise<FormData> {
  try {
    return await event.request.formData();
  } catch (e) {
    if (!(e instanceof TypeError)) throw e;
    error(400, { message: 'The shop could not read that form. Please go back and send it again.', code: 'UNREADABLE_FORM' });
  }
}
