import { Foundation1763700000000 } from './1763700000000-Foundation';
import { CatalogueCore1763800000000 } from './1763800000000-CatalogueCore';
import { LotsStations1763800001000 } from './1763800001000-LotsStations';
import { StationWasteTypes1763800001500 } from './1763800001500-StationWasteTypes';
import { Assets1763800002000 } from './1763800002000-Assets';
import { PricingFleet1763800003000 } from './1763800003000-PricingFleet';
import { MembersAddressesMedia1763800004000 } from './1763800004000-MembersAddressesMedia';
import { OrdersJobs1763900000000 } from './1763900000000-OrdersJobs';
import { OutboxRelay1764000000000 } from './1764000000000-OutboxRelay';
import { OrderListIndexes1764100000000 } from './1764100000000-OrderListIndexes';
import { OrderListCounts1764150000000 } from './1764150000000-OrderListCounts';
import { AttendanceDay1764200000000 } from './1764200000000-AttendanceDay';
import { Dispatch1764200001000 } from './1764200001000-Dispatch';
import { DispatchCompany1764200002000 } from './1764200002000-DispatchCompany';
import { DispatchDriver1764200003000 } from './1764200003000-DispatchDriver';
import { Leaves1764300002000 } from './1764300002000-Leaves';
import { Ledger1764300000000 } from './1764300000000-Ledger';
import { MerchantOnboarding1764300001000 } from './1764300001000-MerchantOnboarding';
import { LeaveAllowances1764300003000 } from './1764300003000-LeaveAllowances';
import { Webhooks1764300005000 } from './1764300005000-Webhooks';
import { Subscriptions1764300004000 } from './1764300004000-Subscriptions';

/** Every migration, in order. `npm run migration:create -- migrations/<Name>` makes a new file; add it here. */
export const MIGRATIONS = [Foundation1763700000000, CatalogueCore1763800000000, LotsStations1763800001000, StationWasteTypes1763800001500, Assets1763800002000, PricingFleet1763800003000, MembersAddressesMedia1763800004000, OrdersJobs1763900000000, OutboxRelay1764000000000, OrderListIndexes1764100000000, OrderListCounts1764150000000, AttendanceDay1764200000000, Dispatch1764200001000, DispatchCompany1764200002000, DispatchDriver1764200003000, Ledger1764300000000, MerchantOnboarding1764300001000, Leaves1764300002000, LeaveAllowances1764300003000, Subscriptions1764300004000, Webhooks1764300005000];
