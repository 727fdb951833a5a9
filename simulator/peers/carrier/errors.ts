// The carrier's wire errors (its control routes).
import { defineError } from '../../core/errors.ts';

export const carrierErrors = {
  SCRIPT_NOT_FOUND: defineError({
    code: 'carrier_script_not_found', status: 404, origin: 'simulator',
    description: 'Control plane: no carrier script with this id.',
  }),
};

