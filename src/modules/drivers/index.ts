/** What other modules may use of drivers (never its entities). */
export { DriversModule } from './drivers.module';
export { DriversService } from './drivers.service';
export { DriverDto, DriverListQuery, UpdateDriverDto } from './driver.dto';
