// The scope the email domains' route handlers see (core/scope.ts): their model as
// `emailDomains`, and the ports and job the family declared (ports.ts); and the definer of their
// operations.
import type { HandlerScope } from '../../core/scope.ts';
import { scopedOperations } from '../../core/operation.ts';
import type { EmailDomainsModel } from './model.ts';
import type { jobs, needs } from './ports.ts';

export type EmailDomainsScope = HandlerScope<'emailDomains', EmailDomainsModel, typeof needs, {}, typeof jobs>;

export const operation = scopedOperations<EmailDomainsScope>();
