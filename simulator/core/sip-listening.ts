// Where the SIP listener is, as /_sim/health shows it (part of the health body the control plane
// answers whether or not the SIP server family is in the build): its host and UDP and TCP ports,
// or null when none runs.
import { Type } from '@sinclair/typebox';
import { Nullable } from './schema.ts';

export interface SipListening {
  host: string;
  udp: number;
  tcp: number;
}

export const SipListeningSchema = Nullable(
  Type.Object(
    { host: Type.String(), udp: Type.Integer(), tcp: Type.Integer() },
    { additionalProperties: false, description: 'Where the SIP listener is (UDP and TCP ports on host); null when the simulator was started without one.' },
  ),
);
