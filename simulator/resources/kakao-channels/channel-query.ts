// The channel a template list names (today's SDK: required, the connection's own id or the
// messenger's channel id; docs/compatibility.md).
import { ApiError } from '../../core/errors.ts';

/** The real service answers 400 when a template list names no channel (docs/compatibility.md). */
export function requiredChannelId(channelId: string | undefined): string {
  if (channelId === undefined || channelId === '') {
    throw ApiError.validation('channelId is required: the connection\'s id (or the messenger\'s channel id)', [{ path: 'channelId', message: 'is required' }]);
  }
  return channelId;
}
