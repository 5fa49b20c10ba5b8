import type { HandleClientError } from '@sveltejs/kit';

/**
 * Errors in the browser (a form or a navigation whose request never got an answer, a bug in a page's
 * script) are said in words, never as the browser's own message ("Failed to fetch").
 */
export const handleError: HandleClientError = ({ error }) =>
  error instanceof TypeError && /fetch|network|load failed/i.test(error.message)
    ? { message: 'We could not reach the shop. Check your connection and try again.', code: 'NETWORK_ERROR' }
    : { message: 'Something went wrong on our side. Please try again.' };
