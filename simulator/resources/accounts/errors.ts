// The accounts family's wire errors, apart from its model so that other families and the
// control plane can name them (in their `errors` lists) without importing the model.
// ACCOUNT_NOT_FOUND is declared in rules/errors.ts, where the peers can name it too.
import { defineError } from '../../core/errors.ts';
import { sharedErrors } from '../../rules/errors.ts';

export const accountErrors = {
  ACCOUNT_NOT_FOUND: sharedErrors.ACCOUNT_NOT_FOUND, // rules/errors.ts: peers name it too
  ACCOUNT_EXISTS: defineError({
    code: 'ACCOUNT_EXISTS', status: 409, origin: 'simulator',
    description: 'Control plane: an account with this id already exists.',
  }),
  API_KEY_TAKEN: defineError({
    code: 'API_KEY_TAKEN', status: 409, origin: 'simulator',
    description: 'Control plane: another account already holds this API key.',
  }),
  PLAN_NOT_FOUND: defineError({
    code: 'PLAN_NOT_FOUND', status: 400, origin: 'simulator',
    description: 'Control plane: no plan with this key is defined in the fixture.',
  }),
};
