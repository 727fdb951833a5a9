// Where the Agent SDK family meets the calls family: the call's actions (the agent seam's
// CallActions, adapted to what SDK calls ask) and the phone's lines. Until the seam is merged no
// SDK call exists, so nothing here is reached; it says so if it ever is.
import type { SdkCallActions } from './call-ports.ts';

export function sdkCallActions(): SdkCallActions {
  throw new Error('Agent SDK calls need the calls family\'s call-handler seam, which this build does not have yet');
}

export function sdkPhoneLines(_callId: string): readonly string[] {
  return [];
}
