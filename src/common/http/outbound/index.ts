import { AppConfig } from '../../../config/app-config';
import { OutboundHttpClient } from './outbound-client';

export { addressProblem, addressRange, hostNameProblem, parseTarget, STRICT_POLICY, type OutboundPolicy } from './address-policy';
export { DEFAULT_LIMITS, OutboundHttpClient, pinnedConnector, systemResolver, type CheckedUrl, type Connector, type ConnectTarget, type OutboundLimits, type OutboundResult, type ResolvedAddress, type Resolver } from './outbound-client';

/** The app's client (a provider of CommonModule): the policy and limits of the configuration, its stubs in tests. */
export function outboundClientFor(config: AppConfig): OutboundHttpClient {
  return new OutboundHttpClient(
    { allowHttp: config.outboundAllowHttp, allowLoopback: config.outboundAllowLoopback },
    { connectTimeoutMs: config.outboundConnectTimeoutMs, timeoutMs: config.outboundTimeoutMs, maxResponseBytes: config.outboundMaxResponseBytes },
    config.outboundResolver,
    config.outboundConnector,
  );
}
