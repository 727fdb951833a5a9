// What the kernel itself contributes besides the families: the fixed control-plane contract
// (health, clock, accounts, reset, state), the OpenAPI document, and the fixture's own fields.
// A function, called by the registry when it is first built.
import type { Contribution } from './resources/family.ts';
import { KERNEL_FIXTURE } from './fixture/schema.ts';
import { operations as fixedControl } from './control-plane.ts';
import { operations as meta } from './meta.ts';
import { operations as inspector } from './web/inspector/routes.ts';

export function kernel(): Contribution {
  return {
    operations: meta,
    control: [...fixedControl, ...inspector],
    tags: {
      'Control plane': 'Test-only scripting and introspection of the simulator (/_sim). Not part of the platform interface.',
      Meta: 'Documents about this API.',
    },
    capabilities: ['clock', 'state', 'writes', 'inspector'],
    fixture: { sections: KERNEL_FIXTURE },
  };
}
