// The scope the fake image host's control routes see (core/scope.ts): the host as `imageHost`;
// and the definer of its operations.
import { scopedOperations } from '../../core/operation.ts';
import type { HandlerScope } from '../../core/scope.ts';
import type { FakeImageHost } from './model.ts';
import type { needs } from './ports.ts';

export type ImageHostScope = HandlerScope<'imageHost', FakeImageHost, typeof needs>;

export const operation = scopedOperations<ImageHostScope>();
