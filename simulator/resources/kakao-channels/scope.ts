// The scope the messenger-channel family's route handlers see (core/scope.ts): their model as
// `kakaoChannels`, and the ports the family declared (ports.ts); and the definer of their
// operations.
import type { HandlerScope } from '../../core/scope.ts';
import { scopedOperations } from '../../core/operation.ts';
import type { KakaoChannelsModel } from './model.ts';
import type { needs } from './ports.ts';

export type KakaoChannelsScope = HandlerScope<'kakaoChannels', KakaoChannelsModel, typeof needs>;

export const operation = scopedOperations<KakaoChannelsScope>();
