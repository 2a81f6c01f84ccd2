export { PlatformModule } from './platform.module';
