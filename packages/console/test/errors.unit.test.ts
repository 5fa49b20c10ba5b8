import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { ApiError, NetworkError } from '@commerce/client';
import { describe as describeError, describeBriefly, fieldErrors, FORM_ERROR, placeErrors } from '../src/lib/errors';

const refusal = (code: ConstructorParameters<typeof ApiError>[1], message: string, details: { field: string; message: string }[] = []) =>
  new ApiError(
    code === 'INTERNAL_ERROR' ? 500 : code === 'NOT_FOUND' ? 404 : code === 'SLUG_TAKEN' ? 409 : 400,
    code,
    message,
    details,
    'req_1',
  );

describe('refusals as people read them', () => {
  test('a refusal says what the API said; an unexpected failure adds the request to quote; a lost request says so', () => {
    assert.equal(describeError(refusal('NOT_FOUND', 'Order not found')), 'Order not found');
    assert.equal(describeError(refusal('INTERNAL_ERROR', 'Internal error')), 'Internal error (request req_1)');
    assert.equal(describeBriefly(refusal('INTERNAL_ERROR', 'Internal error')), 'Internal error');
    assert.equal(
      describeError(new NetworkError('GET failed', new Error('reset'))),
      'The service cannot be reached. Check the connection and try again.',
    );
    assert.equal(describeError(new Error('boom')), 'boom');
    assert.equal(describeError('what'), 'Something went wrong');
  });

  test('something shaped like a refusal is not one: only the client’s ApiError is', () => {
    const lookalike = { status: 400, code: 'VALIDATION_ERROR', message: 'bad', details: [{ field: 'body.name', message: 'is required' }] };
    assert.deepEqual(fieldErrors(lookalike), {});
    assert.equal(describeError(lookalike), 'Something went wrong');
  });

  test('field errors are keyed as the form names them', () => {
    const error = refusal('VALIDATION_ERROR', 'Invalid', [
      { field: 'body.price', message: 'must be money' },
      { field: '/images/0/url', message: 'is not allowed' },
      { field: 'price', message: 'second message for price' },
    ]);
    assert.deepEqual(fieldErrors(error), { price: 'must be money', 'images.0.url': 'is not allowed' });
  });
});

describe('placeErrors: every refusal lands next to its input or above the button, none dropped', () => {
  test('a field with an input gets its message; one without goes above the button, named for people', () => {
    const error = refusal('VALIDATION_ERROR', 'The product is not valid', [
      { field: 'name', message: 'is required' },
      { field: 'images.0.url', message: 'is not an allowed image host' },
    ]);
    assert.deepEqual(placeErrors(error, { inputs: ['name'], label: (f) => (f.startsWith('images.0') ? 'Image 1' : undefined) }), {
      name: 'Is required',
      [FORM_ERROR]: 'The product is not valid. Image 1 is not an allowed image host.',
    });
  });

  test('a refusal code that concerns one input goes next to it, with the API’s words or the form’s', () => {
    assert.deepEqual(placeErrors(refusal('SLUG_TAKEN', 'That slug is taken'), { inputs: ['slug'], codes: { SLUG_TAKEN: 'slug' } }), {
      slug: 'That slug is taken',
    });
    assert.deepEqual(
      placeErrors(refusal('INVALID_PASSWORD', 'Wrong'), {
        inputs: ['current_password'],
        codes: { INVALID_PASSWORD: ['current_password', 'This is not your current password'] },
      }),
      { current_password: 'This is not your current password' },
    );
  });

  test('a refusal without field details, or a lost request, shows above the button', () => {
    assert.deepEqual(placeErrors(refusal('NOT_FOUND', 'Gone'), { inputs: ['name'] }), { [FORM_ERROR]: 'Gone.' });
    assert.deepEqual(placeErrors(refusal('INTERNAL_ERROR', 'Internal error'), { inputs: ['name'] }), {
      [FORM_ERROR]: 'Internal error. (request req_1)',
    });
    assert.deepEqual(placeErrors(new NetworkError('x', null), { inputs: [] }), {
      [FORM_ERROR]: 'The service cannot be reached. Check the connection and try again.',
    });
  });

  test('renamed fields: the API’s options.size belongs to the Options input', () => {
    const error = refusal('VALIDATION_ERROR', 'Invalid', [{ field: 'options.size', message: 'is too long' }]);
    assert.deepEqual(placeErrors(error, { inputs: ['options'], rename: (f) => (f.startsWith('options.') ? 'options' : f) }), {
      options: 'Is too long',
    });
  });
});
